@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import AssentWire
import Foundation
import Testing

/// What the metrics sampler reads from the store (``MetricsStore``), on SQLite and PostgreSQL: expiries counted once
/// across instances, the sweeper waiting for the count, the outbox backlog, and the schema's completeness.
@Suite(.serialized) struct MetricsStoreTests {
    @Test(arguments: StoreKind.allCases)
    func `expired unanswered challenges are counted once across instances, by kind`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        let other = try await fixture.another()
        defer { withExtendedLifetime(fixture) {} }
        // The first count only sets the watermark.
        #expect(try await store.countExpiredChallenges(through: 100) == [:])
        var device = StoreTests.device("d1", key: 1)
        device.verificationMethod = .device
        try await store.insertAuthenticator(device)
        // Push challenges created at 200 expire at 1200; one is answered, one stays open.
        #expect(try await store.insertChallenge(StoreTests.pushChallenge("p-open", now: 200), maxOpenForUser: nil))
        #expect(try await store.insertChallenge(StoreTests.pushChallenge("p-answered", now: 200), maxOpenForUser: nil))
        #expect(try await store.answerChallenge(
            tenantID: "t1", id: "p-answered", from: [.pending], approved: false, authenticatorID: "d1",
            verificationMethod: .push, now: 300) != nil)
        // QR challenges: anonymous and unclaimed, claimed but unanswered, and one expiring later.
        for (id, expiresAt) in [("q-anon", Int64(1500)), ("q-claimed", 1500), ("q-later", 9000)] {
            var challenge = Challenge(id: id, tenantID: "t1", kind: .qrCode, createdAt: 200, expiresAt: expiresAt)
            challenge.actionCode = "signIn"
            #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        }
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k-claimed",
                            state: .challengeRequired, now: 300)
        #expect(try await store.claimChallenge(tenantID: "t1", id: "q-claimed", authenticator: device, anonymousAction: action, now: 300) != nil)

        #expect(try await other.countExpiredChallenges(through: 1199) == [:], "nothing has expired yet")
        #expect(try await other.countExpiredChallenges(through: 2000) == [.push: 1, .qrCode: 2])
        #expect(try await store.countExpiredChallenges(through: 2000) == [:], "another instance counts nothing twice")
        #expect(try await store.countExpiredChallenges(through: 1500) == [:], "a clock behind the watermark counts nothing")
        #expect(try await store.countExpiredChallenges(through: 10_000) == [.qrCode: 1])
    }

    @Test(arguments: StoreKind.allCases)
    func `the sweep keeps an expired anonymous QR challenge until it was counted`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await store.countExpiredChallenges(through: 100) == [:])
        var challenge = Challenge(id: "anon", tenantID: "t1", kind: .qrCode, createdAt: 200, expiresAt: 1000)
        challenge.actionCode = "signIn"
        #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        #expect(try await store.sweep(now: 5000, challengesBefore: 0, eventsBefore: 0) == 0)
        #expect(try await store.countExpiredChallenges(through: 5000) == [.qrCode: 1])
        #expect(try await store.sweep(now: 5000, challengesBefore: 0, eventsBefore: 0) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func `the outbox backlog counts events neither delivered nor given up, with the oldest's time`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await store.webhookOutboxBacklog() == WebhookOutboxBacklog(depth: 0, oldestCreatedAt: nil))
        var authenticator = StoreTests.device("d1", key: 1)
        authenticator.userID = "w"
        try await store.insertAuthenticator(authenticator)
        _ = try await store.deleteUser(tenantID: "t1", userID: "w") { _ in
            (0..<3).map { WebhookEvent(id: "e\($0)", tenantID: "t1", type: "authenticator.deleted", body: "{}", createdAt: 40 + Int64($0)) }
        }
        #expect(try await store.webhookOutboxBacklog() == WebhookOutboxBacklog(depth: 3, oldestCreatedAt: 40))
        try await store.markWebhookDelivered(id: "e0", at: 200)
        try await store.markWebhookAttemptFailed(id: "e1", attempts: 4, nextAttemptAt: nil, error: "HTTP 500", at: 201)
        #expect(try await store.webhookOutboxBacklog() == WebhookOutboxBacklog(depth: 1, oldestCreatedAt: 42))
    }

    @Test(arguments: StoreKind.allCases) func `a migrated store misses no schema step`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await fixture.store.missingSchemaSteps() == [])
    }

    @Test func `a store missing a step says which`() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("assent.sqlite")
        let store = try SQLiteStore(path: path)
        try await store.write { db in try db.update("DELETE FROM schema_steps WHERE version = 10", []) }
        #expect(try await store.missingSchemaSteps() == [10])
        await store.close()
    }

    @Test func `store operations are timed under their own names`() async throws {
        let directory = try TemporaryDirectory()
        let metrics = DomainMetrics()
        let store = try SQLiteStore(path: directory.file("assent.sqlite"), metrics: metrics)
        try await store.insertTenant(StoreTests.tenant())
        _ = try await store.tenant(id: "t1")
        let text = metrics.prometheusText()
        #expect(text.contains("assent_store_operation_duration_seconds_count{operation=\"insertTenant\"} 1\n"))
        #expect(text.contains("assent_store_operation_duration_seconds_bucket{operation=\"insertTenant\",le=\"+Inf\"} 1\n"))
        #expect(text.contains("{operation=\"tenant\"}"), "the read is timed too")
        await store.close()
    }
}
