@testable import AssentServerCore
@testable import AssentStorage
import AssentCrypto
import AssentSync
import Foundation
import AssentTestSupport
import Testing

/// `assent admin backup` / `restore` on SQLite, in process: the manifest describes the copy (schema, counts, audit
/// heads, checksums) with owner-only files; a restore refuses a tampered or truncated file, a newer schema and an
/// existing database before writing anything, and checks what it restored; a migration is preceded by a backup
/// beside the database, and only the newest ones are kept.
@Suite struct BackupTests {
    static let masterKey = [UInt8](repeating: 9, count: 32)

    /// A database in `directory` with two tenants (each with an audit entry) and its master key beside it.
    static func database(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.file("data/assent.sqlite")
        let store = try SQLiteStore(path: path)
        let tenants = TenantDirectory(store: store, clock: .system, masterKey: masterKey)
        _ = try await tenants.create(name: "One")
        _ = try await tenants.create(name: "Two")
        await store.close()
        try DatabaseBackup.writeOwnerOnly(Array((Base64.encode(masterKey) + "\n").utf8), to: directory.file("data/master.key"))
        return path
    }

    static func backup(_ path: String, to folder: String) throws -> BackupManifest {
        try DatabaseBackup.backup(.sqlite(path: path), ring: MasterKeyRing(single: masterKey), to: folder, toolVersion: "test")
    }

    @Test func `a backup holds the database, the master key and a manifest of counts, heads and checksums, owner-only`() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.database(in: directory)
        let folder = directory.file("backup")
        let manifest = try Self.backup(path, to: folder)
        #expect(manifest.database == "sqlite")
        #expect(manifest.contents.schemaStep == SQLiteMigrations.steps.map(\.version).max())
        #expect(manifest.contents.rowCounts["tenants"] == 2)
        #expect(manifest.contents.auditHeads.count == 2)
        #expect(manifest.contents.auditHeads.values.allSatisfy { $0.sequence == 1 && $0.mac.count == 64 })
        #expect(Set(manifest.files.keys) == ["database.sqlite", "master.key"])
        #expect(try fileMode(folder) == 0o700)
        for name in ["database.sqlite", "master.key", "manifest.json"] {
            #expect(try fileMode(directory.file("backup/\(name)")) == 0o600)
        }
        #expect(try BackupManifest.read(from: folder) == manifest)
        #expect(throws: BackupError(.exists, "")) { _ = try Self.backup(path, to: folder) }
    }

    @Test func `a restore into a new path matches the manifest and puts the master key beside it`() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.database(in: directory)
        let folder = directory.file("backup")
        let manifest = try Self.backup(path, to: folder)
        let target = directory.file("restored/assent.sqlite")
        let restored = try DatabaseBackup.restore(from: folder, to: .sqlite(path: target), force: false)
        #expect(restored.masterKeyFile == directory.file("restored/master.key"))
        #expect(try fileMode(directory.file("restored/master.key")) == 0o600)
        let store = try SQLiteStore(path: target)
        #expect(try await store.tenants().count == 2)
        await store.close()
        let ring = try MasterKey.load(base64: nil, file: directory.file("restored/master.key"))
        #expect(ring == MasterKeyRing(single: Self.masterKey))
        #expect(restored.manifest == manifest)
    }

    @Test func `an existing database is refused unless forced`() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.database(in: directory)
        let folder = directory.file("backup")
        _ = try Self.backup(path, to: folder)
        let target = directory.file("other/assent.sqlite")
        let store = try SQLiteStore(path: target)
        await store.close()
        #expect(throws: BackupError(.exists, "")) {
            _ = try DatabaseBackup.restore(from: folder, to: .sqlite(path: target), force: false)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("other/master.key")))
        _ = try DatabaseBackup.restore(from: folder, to: .sqlite(path: target), force: true)
        let restored = try SQLiteStore(path: target)
        #expect(try await restored.tenants().count == 2)
        await restored.close()
    }

    @Test(arguments: ["database.sqlite", "master.key", "manifest.json"])
    func `a tampered, truncated or missing file is refused, naming it, and nothing is written`(file: String) async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.database(in: directory)
        let folder = directory.file("backup")
        _ = try Self.backup(path, to: folder)
        let damaged = directory.file("backup/\(file)")
        switch file {
        case "database.sqlite":  // truncated
            let handle = try #require(FileHandle(forWritingAtPath: damaged))
            try handle.truncate(atOffset: 4096)
            try handle.close()
        case "master.key":  // changed
            try Data((Base64.encode([UInt8](repeating: 1, count: 32)) + "\n").utf8).write(to: URL(fileURLWithPath: damaged))
        default:  // missing
            try FileManager.default.removeItem(atPath: damaged)
        }
        let target = directory.file("restored/assent.sqlite")
        do {
            _ = try DatabaseBackup.restore(from: folder, to: .sqlite(path: target), force: false)
            Issue.record("a damaged backup was restored")
        } catch let error as BackupError {
            #expect(error.code == .damaged)
            #expect(error.reason.contains(file))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("restored")))
    }

    @Test func `a backup with a schema step this build does not know is refused`() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.database(in: directory)
        let connection = try SQLiteConnection(path: path)
        try connection.execute("INSERT INTO schema_steps (version) VALUES (999)")
        let folder = directory.file("backup")
        let manifest = try Self.backup(path, to: folder)
        #expect(manifest.contents.schemaStep == 999)
        #expect(throws: BackupError(.newerSchema, "")) {
            _ = try DatabaseBackup.restore(from: folder, to: .sqlite(path: directory.file("restored/assent.sqlite")), force: false)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("restored")))
    }

    @Test func `a restored database that differs from the manifest is named as a mismatch`() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.database(in: directory)
        let manifest = try Self.backup(path, to: directory.file("backup"))
        var changed = manifest.contents
        changed.rowCounts["tenants"] = 3
        #expect(manifest.contents.difference(from: manifest.contents) == nil)
        #expect(changed.difference(from: manifest.contents)?.contains("tenants") == true)
        var head = manifest.contents
        head.auditHeads[head.auditHeads.keys.first!]?.sequence = 7
        #expect(head.difference(from: manifest.contents)?.contains("audit chain") == true)
    }

    @Test func `a migration is preceded by a backup beside the database, and only the newest are kept`() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.database(in: directory)
        let written = AssentLockedList()
        let policy = PreMigrationBackup(keep: 2, ring: MasterKeyRing(single: Self.masterKey), toolVersion: "test") { written.append($0) }
        // Nothing is due: no backup.
        await (try SQLiteStore(path: path, preMigration: policy)).close()
        #expect(written.all.isEmpty)
        for round in 1...3 {
            // Make the database older: step 17 undone, as an assentd from before it left the database.
            let connection = try SQLiteConnection(path: path)
            try connection.execute("""
                ALTER TABLE console_sessions DROP COLUMN secret_version;
                DELETE FROM schema_steps WHERE version = 17;
                PRAGMA user_version = 16;
                """)
            await (try SQLiteStore(path: path, preMigration: policy)).close()
            #expect(written.all.count == round)
            let folder = try #require(written.all.last)
            #expect(folder.hasPrefix(path + ".pre-migration-"))
            let manifest = try BackupManifest.read(from: folder)
            #expect(!manifest.contents.schemaSteps.contains(17))
            try manifest.verifyFiles(in: folder)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.file("data"))
            .filter { $0.contains(".pre-migration-") }.sorted()
        #expect(kept.count == 2)
        #expect(kept.map { directory.file("data/\($0)") } == Array(written.all.suffix(2)).sorted())
    }
}

/// The folders a policy reported, from its `@Sendable` callback.
final class AssentLockedList: Sendable {
    private let items = AssentLock<[String]>([])
    func append(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
}
