@testable import AssentServer
import AssentWire
import Foundation
import Testing

/// The SQLite push delivery queue: a claim leases each due delivery to one caller, a lapsed lease makes it due
/// again, results release it, stale tokens mark the authenticator only while its token is unchanged, and ended
/// challenges expire their deliveries.
@Suite struct PushDeliveryStoreTests {
    let directory: TemporaryDirectory
    let store: SQLiteStore

    init() async throws {
        directory = try TemporaryDirectory()
        store = try SQLiteStore(path: directory.file("assent.sqlite"))
        try await store.insertTenant(
            Tenant(id: "t", name: "T", secretHash: [1], secretVersion: 1, keyVersion: 1, settings: TenantSettings(), createdAt: 0))
        var authenticator = Authenticator(id: "a1", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 0)
        authenticator.pushToken = "token-1"
        authenticator.devicePlatform = "IOS"
        try await store.insertAuthenticator(authenticator)
    }

    func queue(challengeID: String = "c1", expiresAt: Int64 = 100_000) async throws -> PushDelivery {
        var challenge = Challenge(id: challengeID, tenantID: "t", kind: .push, createdAt: 1000, expiresAt: expiresAt)
        challenge.userID = "u"
        let delivery = PushDelivery(
            id: "d-" + challengeID, tenantID: "t", challengeID: challengeID, authenticatorID: "a1", provider: .apns,
            createdAt: 1000, expiresAt: expiresAt)
        let queued = ChallengeTimelineEntry(event: "push.queued", tenantID: "t", challengeID: challengeID, at: 1000)
        #expect(try await store.insertPushChallenge(challenge, maxOpenForUser: 10, deliveries: [delivery], timeline: [queued]))
        return delivery
    }

    @Test func `a due delivery is leased to one claimer until the lease lapses`() async throws {
        _ = try await queue()
        let first = try await store.claimDuePushDeliveries(now: 2000, leaseUntil: 62_000, limit: 10)
        #expect(first.map(\.id) == ["d-c1"])
        #expect(first.first?.pushToken == "token-1" && first.first?.devicePlatform == "IOS")
        #expect(try await store.claimDuePushDeliveries(now: 3000, leaseUntil: 63_000, limit: 10).isEmpty)
        let again = try await store.claimDuePushDeliveries(now: 62_000, leaseUntil: 99_000, limit: 10)
        #expect(again.map(\.id) == ["d-c1"], "a worker that died mid-send does not strand the delivery")
    }

    @Test func `a retry releases the lease until the next attempt; a stale token marks the authenticator`() async throws {
        var delivery = try await queue()
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

    @Test func `a stale answer for a token the device already replaced marks nothing`() async throws {
        var delivery = try await queue()
        _ = try await store.claimDuePushDeliveries(now: 2000, leaseUntil: 62_000, limit: 10)
        _ = try await store.renewDeviceCredential(tenantID: "t", id: "a1", pushToken: "token-2", expiresAt: nil, at: 2050) { _ in [] }
        delivery.attempts = 1
        delivery.state = .staleToken
        try await store.recordPushAttempt(
            delivery, sentToken: "token-1", staleCode: "push_token_unregistered",
            entry: ChallengeTimelineEntry(event: "push.stale_token", tenantID: "t", challengeID: "c1", at: 2100))
        #expect(try await store.authenticators(tenantID: "t", userID: "u").first?.errorCode == nil)
    }

    @Test func `deliveries of an ended challenge expire instead of being claimed`() async throws {
        _ = try await queue(challengeID: "c1", expiresAt: 3000)
        _ = try await queue(challengeID: "c2")
        try await store.abandonChallenge(
            tenantID: "t", id: "c2", at: 1500,
            entry: ChallengeTimelineEntry(event: "webhook.failed", tenantID: "t", challengeID: "c2", at: 1500))
        #expect(try await store.claimDuePushDeliveries(now: 3000, leaseUntil: 9000, limit: 10).isEmpty)
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "c1").first?.state == .expired)
        #expect(try await store.pushDeliveries(tenantID: "t", challengeID: "c2").first?.state == .expired)
        #expect(try await store.challenge(tenantID: "t", id: "c2")?.isOpen(at: 1600) == false)
    }
}
