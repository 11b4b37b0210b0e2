@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentWire
import Foundation
import Testing
import AssentTestSupport

/// What only the SQLite file store does: its directory, its `user_version`, its group-committing writer.
@Suite struct SQLiteStoreTests {
    let directory: TemporaryDirectory
    let store: SQLiteStore
    let tenant: Tenant

    init() async throws {
        directory = try TemporaryDirectory()
        store = try SQLiteStore(path: directory.file("data/assent.sqlite"))
        tenant = StoreTests.tenant()
        try await store.insertTenant(tenant)
    }

    @Test func `creates the database directory owner-only and migrates a fresh file`() throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("data"))
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func `the database and its -wal and -shm files are 0600 in 0700 directories whatever the umask`() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let fresh = try SQLiteStore(path: directory.file("x/y/assent.sqlite"))
        try await fresh.insertTenant(StoreTests.tenant())
        _ = try await fresh.tenant(id: "t1")
        for name in ["x/y/assent.sqlite", "x/y/assent.sqlite-wal", "x/y/assent.sqlite-shm"] {
            #expect(try fileMode(directory.file(name)) == 0o600, "\(name)")
        }
        #expect(try fileMode(directory.file("x")) == 0o700)
        #expect(try fileMode(directory.file("x/y")) == 0o700)
        await fresh.close()
    }

    @Test func `reopening applies no migration twice and keeps the data`() async throws {
        await store.close()
        let reopened = try SQLiteStore(path: directory.file("data/assent.sqlite"))
        #expect(try await reopened.tenant(id: "t1")?.name == "T")
        await reopened.close()
    }

    @Test func `a database from a newer assentd is refused`() async throws {
        await store.close()
        let connection = try SQLiteConnection(path: directory.file("data/assent.sqlite"))
        try connection.execute("PRAGMA user_version = 999")
        #expect(throws: StoreError(.migrationFailed, "")) {
            _ = try SQLiteStore(path: directory.file("data/assent.sqlite"))
        }
    }

    @Test func `one failing write in a batch does not undo the others`() async throws {
        // Many concurrent writes land in shared batches; the ones that violate a constraint fail alone.
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<200 {
                group.addTask {
                    var t = tenant
                    t.id = "batch-\(i)"
                    t.secretHash = i % 2 == 0 ? tenant.secretHash : Array(repeating: UInt8(i % 256), count: 31) + [2]
                    do {
                        try await store.insertTenant(t)
                        return true
                    } catch let error as StoreError where error.code == .constraintViolation {
                        return false
                    }
                }
            }
            var inserted = 0
            for try await ok in group where ok { inserted += 1 }
            #expect(inserted == 100)
        }
        #expect(try await store.tenants().count == 101)
    }
}
