@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentWire
import Foundation
import AssentSync
import Testing
import AssentTestSupport

/// What only the PostgreSQL store does: migrations shared by instances starting together, announcements of
/// challenge changes to other instances, the copy from SQLite, and libpq's text format.
@Suite(.serialized) struct PostgresStoreTests {
    @Test func `instances starting together on an empty database migrate it once`() async throws {
        let url = try await PostgresTestServer.start().freshDatabase(migrated: false)
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<6 { group.addTask { try await offPool { try PostgresStore(url: url, connections: 2) } } }
            var stores: [PostgresStore] = []
            for try await store in group { stores.append(store) }
            return stores
        }
        let versions = try await offPool {
            try PostgresConnection(url: url).query("SELECT version FROM assent_schema ORDER BY version") { $0.int64(0) }
        }
        #expect(versions == PostgresMigrations.steps.map { Int64($0.version) })
        try await stores[0].insertTenant(StoreTests.tenant())
        #expect(try await stores[5].tenant(id: "t1") != nil)
        #expect(try await offPool { try PostgresStore.migrate(url: url) }.isEmpty)
    }

    @Test func `a database from a newer assentd is refused`() async throws {
        let url = try await PostgresTestServer.start().freshDatabase()
        let refused = try await offPool { () -> StoreError? in
            try PostgresConnection(url: url).execute("INSERT INTO assent_schema (version) VALUES (999)")
            do {
                _ = try PostgresStore(url: url, connections: 1)
                return nil
            } catch let error as StoreError {
                return error
            }
        }
        #expect(refused == StoreError(.migrationFailed, ""))
    }

    @Test func `an unreachable server fails to open with a clear error`() async throws {
        let refused = try await offPool { () -> StoreError? in
            do {
                _ = try PostgresStore(url: "postgres://postgres@127.0.0.1:1/none?connect_timeout=2", connections: 1)
                return nil
            } catch let error as StoreError {
                return error
            }
        }
        #expect(refused == StoreError(.openFailed, ""))
    }

    @Test func `a challenge claimed and answered through one instance is announced to the other at once`() async throws {
        let fixture = try await StoreTests.fixture(.postgres)
        let a = try #require(fixture.store as? PostgresStore)
        let b = try #require(try await fixture.another() as? PostgresStore)
        let received = AssentLock<[ChallengeChange]>([])
        b.watchChallengeChanges { change in received.withLock { $0.append(change) } }
        // Its own changes are not announced back to it.
        a.watchChallengeChanges { change in Issue.record("instance A heard its own change \(change)") }
        try await Task.sleep(nanoseconds: 300_000_000)  // both LISTENs are in place
        try await a.insertAuthenticator(StoreTests.device("d1", key: 1))
        let challenge = Challenge(id: "qr", tenantID: "t1", kind: .qrCode, createdAt: 1, expiresAt: .max / 2)
        #expect(try await a.insertChallenge(challenge, maxOpenForUser: nil))
        let device = StoreTests.device("d1", key: 1)
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k", state: .challengeRequired, now: 2)
        _ = try #require(try await a.claimChallenge(tenantID: "t1", id: "qr", authenticator: device, anonymousAction: action, now: 2))
        _ = try #require(try await a.answerChallenge(
            tenantID: "t1", id: "qr", from: [.claimed], approved: true, authenticatorID: "d1", verificationMethod: .device, now: 3))
        let deadline = Date().addingTimeInterval(5)
        while received.withLock({ $0.count }) < 2, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(received.withLock { $0 } == [
            ChallengeChange(tenantID: "t1", challengeID: "qr", state: .claimed),
            ChallengeChange(tenantID: "t1", challengeID: "qr", state: .approved),
        ])
        await a.close()
        await b.close()
        withExtendedLifetime(fixture) {}
    }

    @Test func `the listening connection comes back after the server dropped it`() async throws {
        let fixture = try await StoreTests.fixture(.postgres)
        let a = try #require(fixture.store as? PostgresStore)
        let b = try #require(try await fixture.another() as? PostgresStore)
        let received = AssentLock<[ChallengeChange]>([])
        b.watchChallengeChanges { change in received.withLock { $0.append(change) } }
        try await Task.sleep(nanoseconds: 300_000_000)
        let url = fixture.location
        let ended = try await offPool {
            try PostgresConnection(url: url).queryOne(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'"
            ) { $0.int64(0) } ?? 0
        }
        #expect(ended == 1)
        try await Task.sleep(nanoseconds: 2_500_000_000)  // re-opened after a second
        try await a.insertAuthenticator(StoreTests.device("d1", key: 1))
        #expect(try await a.insertChallenge(Challenge(id: "qr", tenantID: "t1", kind: .qrCode, createdAt: 1, expiresAt: .max / 2),
                                            maxOpenForUser: nil))
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k", state: .challengeRequired, now: 2)
        _ = try await a.claimChallenge(tenantID: "t1", id: "qr", authenticator: StoreTests.device("d1", key: 1), anonymousAction: action, now: 2)
        let deadline = Date().addingTimeInterval(5)
        while received.withLock({ $0.isEmpty }), Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(received.withLock { $0 } == [ChallengeChange(tenantID: "t1", challengeID: "qr", state: .claimed)])
        await b.close()
        withExtendedLifetime(fixture) {}
    }

    @Test func `copy-sqlite copies every table, and refuses a database that has data`() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("source.sqlite")
        let source = try SQLiteStore(path: path)
        try await source.insertTenant(StoreTests.tenant())
        var user = User(tenantID: "t1", userID: "u", now: 1)
        user.emailVerified = true
        user.custom = ["k": .string("v")]
        try await source.saveUser(user)
        try await StoreTests.enrolmentAction(source, key: "enrol")
        _ = try await source.enrollDevice(StoreTests.device("d1", key: 1), enrolmentKey: "enrol") { a, _ in
            [WebhookEvent(id: "e1", tenantID: "t1", type: "authenticator.created", body: "{}", createdAt: 1)]
        }
        #expect(try await source.spendNonce(StoreTests.spentNonce("n")))
        try await source.insertAttestationChallenge(AttestationChallenge(
            value: "attestation-challenge", tenantID: "t1", userID: "u", createdAt: 1, expiresAt: .max))
        #expect(try await source.insertChallenge(StoreTests.pushChallenge("c1", key: "enrol"), maxOpenForUser: nil))
        try await source.insertAuthenticator(StoreTests.device("removed", key: 9))
        #expect(try await source.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "removed", spending: [[1, 2, 3]], keepUntil: 100) { _ in [] } == .removed)
        let application = ActivationStoreTests.application()
        _ = try await source.insertPowerAuthApplication(application)
        var activation = ActivationStoreTests.activation("pa")
        activation.counter = 7
        try await ActivationStoreTests.insertActivation(source, activation)
        var pushed = Challenge(id: "c2", tenantID: "t1", kind: .push, createdAt: 10, expiresAt: 1_000_000)
        pushed.userID = "u"
        let delivery = PushDelivery(id: "pd", tenantID: "t1", challengeID: "c2", authenticatorID: "d1", provider: .apns,
                                    createdAt: 10, expiresAt: 1_000_000)
        let timeline = (1...3).map { ChallengeTimelineEntry(event: "push.queued", tenantID: "t1", challengeID: "c2", at: 10, detail: "\($0)") }
        #expect(try await source.insertPushChallenge(pushed, maxOpenForUser: nil, deliveries: [delivery], timeline: timeline))
        let masterKey = [UInt8](repeating: 3, count: 32)
        for subject in ["d1", "removed"] {
            try await AuditLog(store: source, masterKey: masterKey, clock: .system)
                .record(tenantID: "t1", .credentialRemoved, actor: "cli", subject: subject)
        }
        await source.close()

        let url = try await PostgresTestServer.start().freshDatabase(migrated: false)
        let report = try await offPool { try DatabaseCopy.copy(sqlitePath: path, postgresURL: url) }
        #expect(report.map(\.table) == DatabaseCopy.tables)
        // Two actions: the push key's enrolment token and the activation's (one token enrols one credential).
        #expect(report.map(\.rows) == [1, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1, 3, 2, 1])
        let target = try await offPool { try PostgresStore(url: url, connections: 2) }
        // The audit chain arrives intact: its MACs cover the values, which the copy keeps exactly.
        #expect(try await AuditLog(store: target, masterKey: masterKey, clock: .system).verify(tenantID: "t1").verification
                == .intact(2))
        #expect(try await target.tenant(id: "t1") == StoreTests.tenant())
        #expect(try await target.user(tenantID: "t1", userID: "u") == user)
        #expect(try await target.authenticators(tenantID: "t1", userID: "u") == [StoreTests.device("d1", key: 1)])
        // The overview's totals come across with the rows (PostgreSQL's triggers count them as they are copied).
        let totals = OverviewTotals(named: try await target.overviewTotals(tenantID: "t1"))
        #expect(totals.users == 1 && totals.authenticators == ["PUSH": 1] && totals.activations == ["PENDING_COMMIT": 1])
        #expect(try await target.challenge(tenantID: "t1", id: "c1") == StoreTests.pushChallenge("c1", key: "enrol"))
        #expect(try await !target.spendNonce(StoreTests.spentNonce("n")), "the spent nonce was copied")
        #expect(try await target.dueWebhookEvents(now: 10, limit: 10).map(\.id) == ["e1"])
        #expect(try await target.powerAuthApplication(tenantID: "t1") == application)
        #expect(try await target.activation(id: "pa") == activation)
        #expect(try await target.pushDeliveries(tenantID: "t1", challengeID: "c2") == [delivery])
        // The timeline keeps its order, and entries written after the copy come after the copied ones.
        let later = ChallengeTimelineEntry(event: "push.delivered", tenantID: "t1", challengeID: "c2", at: 20)
        try await target.appendTimeline([later])
        #expect(try await target.challengeTimeline(tenantID: "t1", challengeID: "c2") == timeline + [later])
        await target.close()
        let again = try await offPool { () -> StoreError? in
            do {
                _ = try DatabaseCopy.copy(sqlitePath: path, postgresURL: url)
                return nil
            } catch let error as StoreError {
                return error
            }
        }
        #expect(again == StoreError(.constraintViolation, ""))
    }

    @Test func `pooled connections the server dropped are replaced without failing the next request`() async throws {
        let fixture = try await StoreTests.fixture(.postgres)
        let store = fixture.store
        // Open several pooled connections, then have the server end them all (as a restart or failover would).
        _ = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await store.tenants().count } }
            return try await group.reduce(0, +)
        }
        let url = fixture.location
        let ended = try await offPool {
            try PostgresConnection(url: url).queryOne(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ) { $0.int64(0) } ?? 0
        }
        #expect(ended >= 1)
        for i in 0..<12 {
            #expect(try await store.tenants().count == 1)
            try await store.saveUser(User(tenantID: "t1", userID: "after-\(i)", now: 1))
        }
        withExtendedLifetime(fixture) {}
    }

    @Test func `text, bytes and numbers survive the text format`() async throws {
        let fixture = try await StoreTests.fixture(.postgres)
        var device = StoreTests.device("d1", key: 0)
        device.publicKey = Array(0...255)
        device.deviceName = "ünïcødé ' \" \\ $1 ; --"
        device.expiresAt = Int64.max
        try await fixture.store.insertAuthenticator(device)
        #expect(try await fixture.store.authenticators(tenantID: "t1", userID: "u") == [device])
        #expect(try await fixture.store.authenticator(tenantID: "t1", method: .push, publicKey: Array(0...255))?.id == "d1")
    }
}
