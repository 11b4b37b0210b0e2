@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentWire
import Foundation
import AssentSync
import Testing

/// The delivery worker with a scripted provider and an injected clock, over each store: a retry waits for its (clock)
/// time, a stale token ends the delivery and marks the authenticator, and nothing is sent for a challenge already
/// answered.
@Suite(.serialized) struct PushDeliveryWorkerTests {
    final class ScriptedSender: PushSender {
        let script: AssentLock<[PushOutcome]>
        let calls = AssentLock<[PushDelivery]>([])
        init(_ outcomes: [PushOutcome]) { script = AssentLock(outcomes) }
        func send(_ delivery: PushDelivery, tenant: Tenant) async -> PushOutcome {
            calls.withLock { $0.append(delivery) }
            return script.withLock { $0.isEmpty ? .delivered(status: 200) : $0.removeFirst() }
        }
    }

    static func eventually(_ condition: () async throws -> Bool) async throws {
        for _ in 0..<200 {
            if try await condition() { return }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        Issue.record("condition not met within 2 s")
    }

    @Test(arguments: StoreKind.allCases)
    func `a retry waits for its time on the injected clock, then a stale token marks the authenticator`(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var settings = TenantSettings()
        settings.push = PushSettings()
        settings.push?.provider = .apns
        try await store.insertTenant(
            Tenant(id: "t", name: "T", secretHash: [1], secretVersion: 1, keyVersion: 1, settings: settings, createdAt: 0))
        var authenticator = Authenticator(id: "a1", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 0)
        authenticator.pushToken = "token-1"
        try await store.insertAuthenticator(authenticator)
        var challenge = Challenge(id: "c1", tenantID: "t", kind: .push, createdAt: 1_000_000, expiresAt: 1_120_000)
        challenge.userID = "u"
        let delivery = PushDelivery(
            id: "d1", tenantID: "t", challengeID: "c1", authenticatorID: "a1", provider: .apns, createdAt: 1_000_000,
            expiresAt: 1_120_000)
        #expect(try await store.insertPushChallenge(challenge, maxOpenForUser: nil, deliveries: [delivery], timeline: []))

        let now = AssentLock<Int64>(1_000_000)
        let sender = ScriptedSender([
            .retry(status: 503, reason: "ServiceUnavailable"),
            .staleToken(code: PushOutcome.unregistered, status: 410, reason: "Unregistered"),
        ])
        var policy = PushDeliveryWorker.Policy()
        policy.retry = PushRetrySchedule(base: 2, cap: 60)
        policy.pollInterval = .milliseconds(20)
        let worker = PushDeliveryWorker(
            store: store, tenants: store, senders: [.apns: sender], clock: WallClock { now.withLock { $0 } },
            logger: Logger(minimumLevel: .error, sink: { _ in }), policy: policy)
        worker.start()
        try await Self.eventually { sender.calls.withLock { $0.count } == 1 }
        try await Self.eventually { try await store.pushDeliveries(tenantID: "t", challengeID: "c1").first?.attempts == 1 }
        #expect(sender.calls.withLock { $0.first?.pushToken } == "token-1")
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(sender.calls.withLock { $0.count } == 1, "not before the clock reaches the retry time")
        now.withLock { $0 += 2_000 }
        worker.wake()
        try await Self.eventually { try await store.pushDeliveries(tenantID: "t", challengeID: "c1").first?.state == .staleToken }
        await worker.stop()
        #expect(sender.calls.withLock { $0.count } == 2)
        let marked = try #require(try await store.authenticators(tenantID: "t", userID: "u").first)
        #expect(marked.errorCode == "push_token_unregistered" && marked.erroredAt == 1_002_000)
        let events = try await store.challengeTimeline(tenantID: "t", challengeID: "c1")
        #expect(events.map(\.event) == ["push.retry", "push.stale_token"])
        #expect(events.map(\.at) == [1_000_000, 1_002_000])
    }
}
