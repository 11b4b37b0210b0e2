@testable import AssentServer
import AssentWire
import Foundation
import Testing

@Suite struct SQLiteStoreTests {
    let directory: TemporaryDirectory
    let store: SQLiteStore
    let tenant: Tenant

    init() async throws {
        directory = try TemporaryDirectory()
        store = try SQLiteStore(path: directory.file("data/assent.sqlite"))
        tenant = Tenant(id: "t1", name: "T", secretHash: Array(repeating: 1, count: 32), secretVersion: 1, keyVersion: 1,
                        settings: TenantSettings(), createdAt: 1)
        try await store.insertTenant(tenant)
    }

    @Test func `creates the database directory owner-only and migrates a fresh file`() throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("data"))
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
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

    @Test func `tenant secrets are unique`() async throws {
        var twin = tenant
        twin.id = "t2"
        await #expect(throws: StoreError(.constraintViolation, "")) { try await store.insertTenant(twin) }
        #expect(try await store.tenants().map(\.id) == ["t1"])
    }

    @Test func `tracking inserts user and action in one transaction and is idempotent per key`() async throws {
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k1",
                            state: .challengeRequired, now: 10)
        let first = try await store.trackAction(action, user: { $0 ?? User(tenantID: "t1", userID: "u", now: 10) },
                                                decide: { a, auths in a.state = auths.isEmpty ? .allow : .block })
        #expect(first.created && first.action.state == .allow)
        let again = try await store.trackAction(action, user: { $0! }, decide: { a, _ in a.state = .block })
        #expect(!again.created && again.action.state == .allow)

        var other = action
        other.userID = "someone-else"
        await #expect(throws: StoreError(.constraintViolation, "")) {
            _ = try await store.trackAction(other, user: { _ in User(tenantID: "t1", userID: "someone-else", now: 1) },
                                            decide: { _, _ in })
        }
        // The refused track left no user behind.
        #expect(try await store.user(tenantID: "t1", userID: "someone-else") == nil)
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

    @Test func `exactly one concurrent validation marks an action`() async throws {
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "race",
                            state: .challengeSucceeded, now: 10)
        _ = try await store.trackAction(action, user: { _ in User(tenantID: "t1", userID: "u", now: 1) },
                                        decide: { a, _ in a.state = .challengeSucceeded })
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 {
                group.addTask { try await store.markActionValidated(tenantID: "t1", idempotencyKey: "race", at: 5) }
            }
            var count = 0
            for try await won in group where won { count += 1 }
            return count
        }
        #expect(winners == 1)
    }

    @Test func `deleting a user removes its authenticators and actions`() async throws {
        var authenticator = Authenticator(id: "a1", tenantID: "t1", userID: "gone", verificationMethod: .emailOTP, createdAt: 3)
        authenticator.email = "g@example.com"
        try await store.insertAuthenticator(authenticator)
        let action = Action(tenantID: "t1", userID: "gone", actionCode: "signIn", idempotencyKey: "kg",
                            state: .challengeRequired, now: 10)
        _ = try await store.trackAction(action, user: { $0! }, decide: { _, _ in })
        #expect(try await store.deleteUser(tenantID: "t1", userID: "gone") { _ in [] })
        #expect(try await store.authenticators(tenantID: "t1", userID: "gone").isEmpty)
        #expect(try await store.action(tenantID: "t1", idempotencyKey: "kg") == nil)
        #expect(try await !store.deleteUser(tenantID: "t1", userID: "gone") { _ in [] })
    }

    @Test func `custom data round-trips as JSON`() async throws {
        var user = User(tenantID: "t1", userID: "c", now: 1)
        user.custom = ["n": .number(2), "s": .string("x"), "o": .object(["b": .bool(true)]), "a": .array([.null])]
        try await store.saveUser(user)
        #expect(try await store.user(tenantID: "t1", userID: "c")?.custom == user.custom)
    }
}
