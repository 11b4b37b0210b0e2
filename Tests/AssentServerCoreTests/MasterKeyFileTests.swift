import AssentServerCore
import AssentTestSupport
import Foundation
import AssentSync
import Testing

/// The master key file's permissions: created owner-only, refused when every user can read it, reported when the
/// group can. The tests run as root here, so modes are checked with stat, never by a denied read.
@Suite struct MasterKeyFileTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private func writeKey(_ path: String, mode: Int) throws {
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode_t(mode))
    }

    @Test func `a new key file is 0600 in a new 0700 directory whatever the umask`() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let file = directory.file("a/b/master.key")
        _ = try MasterKey.load(base64: nil, file: file)
        #expect(try fileMode(file) == 0o600)
        #expect(try fileMode(directory.file("a/b")) == 0o700)
        #expect(try fileMode(directory.file("a")) == 0o700)
    }

    @Test func `a world-readable key file is refused with how to fix it`() throws {
        let file = directory.file("master.key")
        for mode in [0o644, 0o604, 0o666] {
            try writeKey(file, mode: mode)
            let error = #expect(throws: MasterKey.Invalid.self) { try MasterKey.load(base64: nil, file: file) }
            #expect(error?.description.contains("chmod 600 \(file)") == true)
            #expect(error?.description.contains("readable by every user") == true)
        }
    }

    @Test func `a group-readable key file is loaded with a warning, an owner-only one without`() throws {
        let file = directory.file("master.key")
        let warnings = AssentLock<[String]>([])
        try writeKey(file, mode: 0o640)
        let ring = try MasterKey.load(base64: nil, file: file) { message in warnings.withLock { $0.append(message) } }
        #expect(ring == MasterKeyRing(single: [UInt8](repeating: 7, count: 32)))
        #expect(warnings.withLock { $0.count } == 1)
        #expect(warnings.withLock { $0.first?.contains("readable by its group") } == true)

        try writeKey(file, mode: 0o600)
        _ = try MasterKey.load(base64: nil, file: file) { message in warnings.withLock { $0.append(message) } }
        #expect(warnings.withLock { $0.count } == 1)
    }
}
