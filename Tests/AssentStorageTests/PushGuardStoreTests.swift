@testable import AssentServerCore
@testable import AssentStorage
import AssentWire
import Testing

/// Each user's push-bombing state on both stores: failures counted atomically — also concurrently across two store
/// instances on one database — expiries counted once, and the report's timeline entry and webhook written with it.
@Suite(.serialized) struct PushGuardStoreTests {
    static let now: Int64 = 10_000_000

    /// Records a failure at `at` (after counting any expiries) with a 60-second base throttle.
    static func fail(_ store: any ServerStore, at: Int64, user: String = "u") async throws -> PushGuard {
        try await store.updatePushGuard(tenantID: "t1", userID: user, now: at, timeline: [], events: []) { state, expired in
            state.countExpiries(expired, through: at, throttleSeconds: 60)
            state.recordFailure(at: at, throttleSeconds: 60)
        }
    }

    static func pushChallenge(_ id: String, expiresAt: Int64, user: String = "u") -> Challenge {
        var challenge = Challenge(id: id, tenantID: "t1", kind: .push, createdAt: expiresAt - 120_000, expiresAt: expiresAt)
        challenge.userID = user
        return challenge
    }

    @Test(arguments: StoreKind.allCases) func `a user without a guard has none, and failures and an approval round-trip`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let none = try await store.pushGuard(tenantID: "t1", userID: "u", now: Self.now)
        #expect(none.stored == nil && none.expiredAt.isEmpty)
        _ = try await Self.fail(store, at: Self.now)
        _ = try await Self.fail(store, at: Self.now + 1000)
        let third = try await Self.fail(store, at: Self.now + 2000)
        #expect(third.consecutiveFailures == 3 && third.throttleLevel == 1 && third.throttledUntil == Self.now + 62_000)
        let stored = try await store.pushGuard(tenantID: "t1", userID: "u", now: Self.now + 3000).stored
        #expect(stored == third)
        let approved = try await store.updatePushGuard(
            tenantID: "t1", userID: "u", now: Self.now + 4000, timeline: [], events: []
        ) { state, _ in state.recordApproval(at: Self.now + 4000) }
        #expect(approved.consecutiveFailures == 0 && approved.throttledUntil == nil && approved.refusal(at: Self.now + 4000) == nil)
        #expect(try await store.pushGuard(tenantID: "t1", userID: "other", now: Self.now).stored == nil)
    }

    @Test(arguments: StoreKind.allCases) func `twenty failures at once across two instances all count`(kind: StoreKind) async throws {
        let (fixture, stores) = try await StoreConcurrencyTests.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        let counted = try await StoreConcurrencyTests.race(stores, count: 20) { store, i in
            _ = try await Self.fail(store, at: Self.now + Int64(i))
            return true
        }
        #expect(counted == 20)
        let stored = try await stores[0].pushGuard(tenantID: "t1", userID: "u", now: Self.now + 100).stored
        let state = try #require(stored)
        // Every failure was counted once: the third throttled, each of the 17 after it doubled the throttle.
        #expect(state.consecutiveFailures == 20)
        #expect(state.throttleLevel == 18)
    }

    @Test(arguments: StoreKind.allCases) func `an approval among concurrent failures resets the count it follows`(kind: StoreKind) async throws {
        let (fixture, stores) = try await StoreConcurrencyTests.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        _ = try await Self.fail(stores[0], at: Self.now)
        _ = try await Self.fail(stores[1], at: Self.now + 1)
        // Ten failures and one approval at once: the approval lands between them, so what is left is exactly the
        // failures committed after it (each sees the state the one before it left).
        let results = try await withThrowingTaskGroup(of: (Bool, Int).self) { group in
            for i in 0..<11 {
                let store = stores[i % 2]
                group.addTask {
                    let approve = i == 5
                    let state = try await store.updatePushGuard(
                        tenantID: "t1", userID: "u", now: Self.now + 10, timeline: [], events: []
                    ) { state, _ in
                        if approve { state.recordApproval(at: Self.now + 10) } else { state.recordFailure(at: Self.now + 10, throttleSeconds: 60) }
                    }
                    return (approve, state.consecutiveFailures)
                }
            }
            var all: [(Bool, Int)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let stored = try await stores[0].pushGuard(tenantID: "t1", userID: "u", now: Self.now + 20).stored
        let final = try #require(stored).consecutiveFailures
        #expect(results.first(where: \.0)?.1 == 0)
        // The k failures committed before the approval saw 3...2+k, those after it 1...final: none was lost or
        // counted twice, and the approval reset exactly what came before it.
        let k = 10 - final
        let seen = results.filter { !$0.0 }.map(\.1).sorted()
        #expect(seen == ((0..<final).map { $0 + 1 } + (0..<k).map { $0 + 3 }).sorted())
    }

    @Test(arguments: StoreKind.allCases) func `expiries count once each, also when counted by two instances at once`(kind: StoreKind) async throws {
        let (fixture, stores) = try await StoreConcurrencyTests.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        for i in 0..<2 {
            #expect(try await stores[0].insertChallenge(Self.pushChallenge("e\(i)", expiresAt: Self.now - 1000 + Int64(i)), maxOpenForUser: nil))
        }
        // Answered, still open, another user's, a QR one, and one whose start failed: none counts.
        var answered = Self.pushChallenge("answered", expiresAt: Self.now - 500)
        answered.state = .denied
        #expect(try await stores[0].insertChallenge(answered, maxOpenForUser: nil))
        #expect(try await stores[0].insertChallenge(Self.pushChallenge("open", expiresAt: Self.now + 60_000), maxOpenForUser: nil))
        #expect(try await stores[0].insertChallenge(Self.pushChallenge("theirs", expiresAt: Self.now - 500, user: "v"), maxOpenForUser: nil))
        var qr = Self.pushChallenge("qr", expiresAt: Self.now - 500)
        qr.kind = .qrCode
        #expect(try await stores[0].insertChallenge(qr, maxOpenForUser: nil))
        #expect(try await stores[0].insertPushChallenge(
            Self.pushChallenge("abandoned", expiresAt: Self.now - 500), maxOpenForUser: nil, deliveries: [],
            timeline: [ChallengeTimelineEntry(event: "webhook.failed", tenantID: "t1", challengeID: "abandoned", at: Self.now - 500)]))
        #expect(try await stores[1].pushGuard(tenantID: "t1", userID: "u", now: Self.now).expiredAt.count == 2)

        let counted = try await StoreConcurrencyTests.race(stores, count: 10) { store, _ in
            let state = try await store.updatePushGuard(tenantID: "t1", userID: "u", now: Self.now, timeline: [], events: []) {
                state, expired in state.countExpiries(expired, through: Self.now, throttleSeconds: 60)
            }
            return state.consecutiveFailures == 2
        }
        #expect(counted == 10)
        let read = try await stores[0].pushGuard(tenantID: "t1", userID: "u", now: Self.now)
        #expect(read.stored?.consecutiveFailures == 2 && read.expiredAt.isEmpty)
        // A third failure throttles.
        #expect(try await Self.fail(stores[1], at: Self.now + 1).refusal(at: Self.now + 1)?.code == .pushThrottled)
    }

    @Test(arguments: StoreKind.allCases) func `a fraud report's timeline entry and webhook are written with the lock`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await store.insertChallenge(Self.pushChallenge("c1", expiresAt: Self.now + 60_000), maxOpenForUser: nil))
        let entry = ChallengeTimelineEntry(
            event: "push.fraud_reported", tenantID: "t1", challengeID: "c1", at: Self.now, authenticatorID: "a1",
            detail: "push locked")
        let event = WebhookEvent(id: "w1", tenantID: "t1", type: "push.fraud_reported", body: "{}", createdAt: Self.now)
        let state = try await store.updatePushGuard(
            tenantID: "t1", userID: "u", now: Self.now, timeline: [entry], events: [event]
        ) { state, _ in state.lock(at: Self.now, seconds: 3600) }
        #expect(state.refusal(at: Self.now + 3_599_000)?.code == .pushLocked)
        #expect(state.refusal(at: Self.now + 3_599_000)?.retryAfterSeconds == 1)
        #expect(try await store.challengeTimeline(tenantID: "t1", challengeID: "c1") == [entry])
        #expect(try await store.dueWebhookEvents(now: Self.now, limit: 10).map(\.id) == ["w1"])
        // An administrator's reset ends it.
        let reset = try await store.updatePushGuard(tenantID: "t1", userID: "u", now: Self.now + 1, timeline: [], events: []) {
            state, _ in state.reset(at: Self.now + 1)
        }
        #expect(reset.refusal(at: Self.now + 1) == nil)
    }
}
