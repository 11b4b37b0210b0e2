@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentWire
import Foundation
import Testing

/// The push delivery queue (``PushDeliveryStore``), on an SQLite file and on a PostgreSQL database: a claim leases
/// each due delivery to one caller, a lapsed lease makes it due again, results release it, stale tokens mark the
/// authenticator only while its token is unchanged, ended challenges expire their deliveries, and the sweep removes
/// finished rows. Serialized like the other PostgreSQL suites.
@Suite(.serialized) struct PushDeliveryStoreTests {
    /// A fresh store with tenant `t` and its push authenticator `a1` (token `token-1`).
    static func fixture(_ kind: StoreKind) async throws -> (StoreFixture, any ServerStore) {
        let fixture = try await StoreFixture.make(kind)
        let store = fixture.store
        try await store.insertTenant(
            Tenant(id: "t", name: "T", secretHash: [1], secretVersion: 1, keyVersion: 1, settings: TenantSettings(), createdAt: 0))
        var authenticator = Authenticator(id: "a1", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 0)
        authenticator.pushToken = "token-1"
        authenticator.devicePlatform = "IOS"
        try await store.insertAuthenticator(authenticator)
        return (fixture, store)
    }

    func queue(_ store: any ServerStore, challengeID: String = "c1", expiresAt: Int64 = 100_000) async throws -> PushDelivery {
        var challenge = Challenge(id: challengeID, tenantID: "t", kind: .push, createdAt: 1000, expiresAt: expiresAt)
        challenge.userID = "u"
        let delivery = PushDelivery(
            id: "d-" + challengeID, tenantID: "t", challengeID: challengeID, authenticatorID: "a1", provider: .apns,
            createdAt: 1000, expiresAt: expiresAt)
        let queued = ChallengeTimelineEntry(event: "push.queued", tenantID: "t", challengeID: challengeID, at: 1000)
        #expect(try await store.insertPushChallenge(challenge, maxOpenForUser: 10, deliveries: [delivery], timeline: [queued]))
        return delivery
    }

    @Test(arguments: StoreKind.allCases) func `a due delivery is leased to one claimer until the lease lapses`(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        _ = try await queue(store)
        let first = try await store.claimDuePushDeliveries(now: 2000, leaseUntil: 62_000, limit: 10)
        #expect(first.map(\.id) == ["d-c1"])
        #expect(first.first?.pushToken == "token-1" && first.first?.devicePlatform == "IOS")
        #expect(try await store.claimDuePushDeliveries(now: 3000, leaseUntil: 63_000, limit: 10).isEmpty)
        let again = try await store.claimDuePushDeliveries(now: 62_000, leaseUntil: 99_000, limit: 10)
        #expect(again.map(\.id) == ["d-c1"], "a worker that died mid-send does not strand the delivery")
    }

    @Test(arguments: StoreKind.allCases) func `a retry releases the lease until the next attempt; a stale token marks the authenticator`(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        var delivery = try await queue(store)
        _ = try await store.claimDuePushDeliveries(now: 2000, leaseUntil: 62_000, limit: 10)
        delivery.attempts = 1
        delivery.nextAttemptAt = 5000
        try await store.recordPushAttempt(
            delivery, sentToken: "token-1", staleCode: nil,
            entry: ChallengeTimelineEntry(event: "push.retry", tenantID: "t", challengeID: "c1", at: 2100, status: 503))
        #expect(try await store.claimDuePushDeliveries(now: 4999, leaseUntil: 9999, limit: 10).isEmpty)
        #expect(try await store.claimDuePushDeliveries(now: 5000, leaseUntil: 9999, limit: 10).count == 1)
        delivery.attempts = 2
        delivery.state = .staleToken
        try await store.recordPushAttempt(
            delivery, sentToken: "token-1", staleCode: "push_token_unregistered",
            entry: ChallengeTimelineEntry(event: "push.stale_token", tenantID: "t", challengeID: "c1", at: 5100, status: 410))
        let marked = try #require(try await store.authenticators(tenantID: "t", userID: "u").first)
        #expect(marked.errorCode == "push_token_unregistered" && marked.erroredAt == 5100)
        #expect(try await store.challengeTimeline(tenantID: "t", challengeID: "c1").map(\.event)
            == ["push.queued", "push.retry", "push.stale_token"])
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "c1").first?.state == .staleToken)
        #expect(try await store.claimDuePushDeliveries(now: 9000, leaseUntil: 9999, limit: 10).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func `a stale answer for a token the device already replaced marks nothing`(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        var delivery = try await queue(store)
        _ = try await store.claimDuePushDeliveries(now: 2000, leaseUntil: 62_000, limit: 10)
        _ = try await store.renewDeviceCredential(tenantID: "t", id: "a1", pushToken: "token-2", expiresAt: nil, at: 2050) { _ in [] }
        delivery.attempts = 1
        delivery.state = .staleToken
        try await store.recordPushAttempt(
            delivery, sentToken: "token-1", staleCode: "push_token_unregistered",
            entry: ChallengeTimelineEntry(event: "push.stale_token", tenantID: "t", challengeID: "c1", at: 2100))
        #expect(try await store.authenticators(tenantID: "t", userID: "u").first?.errorCode == nil)
    }

    @Test(arguments: StoreKind.allCases) func `deliveries of an ended challenge expire instead of being claimed`(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        _ = try await queue(store, challengeID: "c1", expiresAt: 3000)
        _ = try await queue(store, challengeID: "c2")
        try await store.abandonChallenge(
            tenantID: "t", id: "c2", at: 1500,
            entry: ChallengeTimelineEntry(event: "webhook.failed", tenantID: "t", challengeID: "c2", at: 1500))
        #expect(try await store.claimDuePushDeliveries(now: 3000, leaseUntil: 9000, limit: 10).isEmpty)
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "c1").first?.state == .expired)
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "c2").first?.state == .expired)
        #expect(try await store.challenge(tenantID: "t", id: "c2")?.isOpen(at: 1600) == false)
    }

    @Test(arguments: StoreKind.allCases)
    func `a claim expires deliveries of answered challenges and of authenticators without a token, with timeline entries`(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        _ = try await queue(store, challengeID: "answered")
        _ = try await store.answerChallenge(
            tenantID: "t", id: "answered", from: [.pending], approved: true, authenticatorID: "a1", verificationMethod: .push,
            now: 1500)
        var tokenless = Authenticator(id: "a2", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 0)
        tokenless.publicKey = [2]
        try await store.insertAuthenticator(tokenless)
        var challenge = Challenge(id: "c3", tenantID: "t", kind: .push, createdAt: 1000, expiresAt: 100_000)
        challenge.userID = "u"
        let deliveries = ["a1", "a2"].map {
            PushDelivery(id: "d3-\($0)", tenantID: "t", challengeID: "c3", authenticatorID: $0, provider: .fcm,
                         createdAt: 1000, expiresAt: 100_000)
        }
        let timeline = ["first", "second", "third"].map {
            ChallengeTimelineEntry(event: "push.queued", tenantID: "t", challengeID: "c3", at: 1000, detail: $0)
        }
        #expect(try await store.insertPushChallenge(challenge, maxOpenForUser: nil, deliveries: deliveries, timeline: timeline))

        let claimed = try await store.claimDuePushDeliveries(now: 2000, leaseUntil: 9000, limit: 10)
        #expect(claimed.map(\.id) == ["d3-a1"])
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "answered").map(\.lastError) == ["challenge_answered"])
        let c3 = try await store.pushDeliveries(tenantID: "t", challengeID: "c3")
        #expect(c3.map(\.state) == [.queued, .expired] && c3.last?.lastError == "push_token_missing")
        #expect(try await store.challengeTimeline(tenantID: "t", challengeID: "c3") == timeline + [
            ChallengeTimelineEntry(event: "push.expired", tenantID: "t", challengeID: "c3", at: 2000, authenticatorID: "a2",
                                   provider: "fcm", attempt: 0, detail: "push_token_missing"),
        ])
        #expect(try await store.challengeTimeline(tenantID: "t", challengeID: "answered").map(\.event) == ["push.queued", "push.expired"])
    }

    @Test(arguments: StoreKind.allCases)
    func `a push challenge refused at the pending cap queues nothing, and the sweep removes finished rows`(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        var delivery = try await queue(store, challengeID: "c1")
        var refused = Challenge(id: "c2", tenantID: "t", kind: .push, createdAt: 1000, expiresAt: 100_000)
        refused.userID = "u"
        let queued = PushDelivery(id: "d-c2", tenantID: "t", challengeID: "c2", authenticatorID: "a1", provider: .apns,
                                  createdAt: 1000, expiresAt: 100_000)
        #expect(try await !store.insertPushChallenge(
            refused, maxOpenForUser: 1, deliveries: [queued],
            timeline: [ChallengeTimelineEntry(event: "push.queued", tenantID: "t", challengeID: "c2", at: 1000)]))
        #expect(try await store.challenge(tenantID: "t", id: "c2") == nil)
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "c2").isEmpty)
        #expect(try await store.challengeTimeline(tenantID: "t", challengeID: "c2").isEmpty)

        _ = try await store.claimDuePushDeliveries(now: 2000, leaseUntil: 9000, limit: 10)
        delivery.attempts = 1
        delivery.state = .delivered
        try await store.recordPushAttempt(
            delivery, sentToken: "token-1", staleCode: nil,
            entry: ChallengeTimelineEntry(event: "push.delivered", tenantID: "t", challengeID: "c1", at: 2100, status: 200))
        #expect(try await store.sweepPushDeliveries(before: 2000) == 1, "only the queued entry is older")
        #expect(try await store.sweepPushDeliveries(before: 3000) == 2, "the delivered delivery and its entry")
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "c1").isEmpty)
        #expect(try await store.challengeTimeline(tenantID: "t", challengeID: "c1").isEmpty)
    }
}
