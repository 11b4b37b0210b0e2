import AssentCrypto
@testable import AssentServerCore
import AssentSync
import AssentTestSupport
import Foundation
import Testing

/// The master key ring on its own: its file format (a single key reads as version 1), rotation and retirement with
/// their refusals, parse errors, the ring file's permissions and atomic replacement, and reloading it while serving.
@Suite struct MasterKeyRingTests {
    static let one = [UInt8](repeating: 1, count: 32)
    static let two = [UInt8](repeating: 2, count: 32)
    static let three = [UInt8](repeating: 3, count: 32)

    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    // MARK: Format

    @Test func `a single key file reads as version 1, current, and is written back unchanged`() throws {
        let text = Base64.encode(Self.one) + "\n"
        let ring = try MasterKeyRing.parse(text, source: "master.key")
        #expect(ring.current == 1 && ring.versions.count == 1 && ring.currentKey == Self.one)
        #expect(ring.previous == nil && ring.recent == [1])
        #expect(ring.text == text)
    }

    @Test func `a rotated ring is written with its header, current line and one line per version, and reads back equal`() throws {
        let ring = try MasterKeyRing(single: Self.one).rotated(adding: Self.two).retiring(1)
        #expect(ring.text == """
            assent-master-key-ring 1
            current 2
            1 retired \(Base64.encode(Self.one))
            2 active \(Base64.encode(Self.two))

            """)
        #expect(try MasterKeyRing.parse(ring.text, source: "f") == ring)
    }

    // MARK: Rotate and retire

    @Test func `rotation adds the next version as current; the one before stays active as previous`() {
        let ring = MasterKeyRing(single: Self.one).rotated(adding: Self.two)
        #expect(ring.current == 2 && ring.currentKey == Self.two)
        #expect(ring.previous == 1 && ring.recent == [2, 1])
        #expect(ring.activeKey(1) == Self.one && ring.activeKey(2) == Self.two && ring.activeKey(3) == nil)
        let again = ring.rotated(adding: Self.three)
        #expect(again.current == 3 && again.previous == 2 && again.recent == [3, 2])
    }

    @Test func `a retired version opens nothing but its audit key stays, and previous skips it`() throws {
        let ring = try MasterKeyRing(single: Self.one).rotated(adding: Self.two).rotated(adding: Self.three).retiring(2)
        #expect(ring.activeKey(2) == nil)
        #expect(ring.auditKey(2) == Self.two)
        #expect(ring.previous == 1 && ring.recent == [3, 1])
        #expect(ring.retired == [2])
    }

    @Test func `retiring the current, an unknown or an already retired version is refused and changes nothing`() throws {
        let ring = MasterKeyRing(single: Self.one).rotated(adding: Self.two)
        #expect(throws: MasterKeyRingError(.currentVersion, "")) { try ring.retiring(2) }
        #expect(throws: MasterKeyRingError(.unknownVersion, "")) { try ring.retiring(7) }
        let retired = try ring.retiring(1)
        #expect(throws: MasterKeyRingError(.alreadyRetired, "")) { try retired.retiring(1) }
        #expect(ring.activeKey(1) == Self.one)
    }

    // MARK: Parse errors

    @Test(arguments: [
        "",
        "not base64 at all",
        Base64.encode([UInt8](repeating: 1, count: 31)),
        "assent-master-key-ring 1\ncurrent 1",
        "assent-master-key-ring 1\nnow 1\n1 active \(Base64.encode(one))",
        "assent-master-key-ring 1\ncurrent 2\n1 active \(Base64.encode(one))",
        "assent-master-key-ring 1\ncurrent 1\n1 retired \(Base64.encode(one))",
        "assent-master-key-ring 1\ncurrent 1\n1 active \(Base64.encode(one))\n1 active \(Base64.encode(two))",
        "assent-master-key-ring 1\ncurrent 1\n1 sleeping \(Base64.encode(one))",
        "assent-master-key-ring 1\ncurrent 1\n1 active \(Base64.encode([UInt8](repeating: 1, count: 16)))",
        "assent-master-key-ring 1\ncurrent 0\n0 active \(Base64.encode(one))",
    ])
    func `a damaged ring is refused as malformed, naming the file`(text: String) {
        let error = #expect(throws: MasterKeyRingError(.malformed, "")) { try MasterKeyRing.parse(text, source: "ring.key") }
        #expect(error?.reason.contains("ring.key") == true)
    }

    @Test func `a damaged ring file is refused by the loader with the reason`() throws {
        let file = directory.file("master.key")
        try Data("assent-master-key-ring 1\ncurrent 3\n1 active \(Base64.encode(Self.one))\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        let error = #expect(throws: MasterKey.Invalid.self) { try MasterKey.load(base64: nil, file: file) }
        #expect(error?.description.contains("current version 3") == true)
    }

    // MARK: File

    @Test func `a written ring is 0600 whatever the umask, replaces the old file whole and leaves no temporary`() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let file = directory.file("master.key")
        let single = try MasterKey.load(base64: nil, file: file)
        let rotated = single.rotated(adding: Self.two)
        try MasterKey.save(rotated, to: file)
        #expect(try fileMode(file) == 0o600)
        #expect(try MasterKey.load(base64: nil, file: file) == rotated)
        #expect(!FileManager.default.fileExists(atPath: file + ".new"))
    }

    @Test func `a ring file every user can read is refused like a key file`() throws {
        let file = directory.file("master.key")
        try MasterKey.save(MasterKeyRing(single: Self.one).rotated(adding: Self.two), to: file)
        chmod(file, 0o644)
        #expect(throws: MasterKey.Invalid.self) { try MasterKey.load(base64: nil, file: file) }
    }

    // MARK: Reload

    @Test func `a server's ring picks up a version another process added when something names it`() throws {
        let file = directory.file("master.key")
        let first = MasterKeyRing(single: Self.one)
        try MasterKey.save(first.rotated(adding: Self.two), to: file)
        let told = AssentLock<[Int]>([])
        let keys = MasterKeys(try MasterKey.load(base64: nil, file: file), file: file) { ring in
            told.withLock { $0.append(ring.current) }
        }
        #expect(keys.current.current == 2)
        #expect(keys.ring(having: 3).activeKey(3) == nil, "the file has no version 3 yet")
        try MasterKey.save(keys.current.rotated(adding: Self.three), to: file)
        #expect(keys.current.current == 2)
        #expect(keys.ring(having: 3).activeKey(3) == Self.three)
        #expect(keys.current.current == 3)
        #expect(told.withLock { $0 } == [3], "the change is told once, whichever reason read the file")
    }

    @Test func `a reload refuses a file that lacks a version in use, and keeps the ring`() throws {
        let file = directory.file("master.key")
        let ring = MasterKeyRing(single: Self.one).rotated(adding: Self.two)
        try MasterKey.save(ring, to: file)
        let keys = MasterKeys(ring, file: file)
        try MasterKey.save(MasterKeyRing(single: Self.three), to: file)
        #expect(throws: MasterKeyRingError(.malformed, "")) { try keys.reload() }
        #expect(keys.current == ring)
    }

    @Test func `a reload sees a retirement: the retired version stops opening`() throws {
        let file = directory.file("master.key")
        let ring = MasterKeyRing(single: Self.one).rotated(adding: Self.two)
        try MasterKey.save(ring, to: file)
        let keys = MasterKeys(ring, file: file)
        try MasterKey.save(try ring.retiring(1), to: file)
        #expect(try keys.reload())
        #expect(keys.current.activeKey(1) == nil)
        #expect(try !keys.reload())
    }
}
