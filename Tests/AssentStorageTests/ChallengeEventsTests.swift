@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import AssentSync
import Testing
import AssentTestSupport
import AssentWire

/// The in-process event bus and the bridge that keeps it right across instances.
@Suite struct ChallengeEventsTests {
    static func challenge(_ state: Challenge.State, tenant: String = "t1") -> Challenge {
        var challenge = Challenge(id: "c", tenantID: tenant, kind: .qrCode, createdAt: 1, expiresAt: 1_000_000)
        challenge.state = state
        return challenge
    }

    @Test func `watchers hear each state once, however often it is published`() {
        let events = ChallengeEvents()
        let heard = AssentLock<[Challenge.State]>([])
        let subscription = events.subscribe(tenantID: "t1", challengeID: "c") { c in heard.withLock { $0.append(c.state) } }
        for state in [Challenge.State.pending, .claimed, .claimed, .approved, .approved] {
            events.publish(Self.challenge(state))
        }
        // Another tenant's challenge with the same id is not this one.
        events.publish(Self.challenge(.denied, tenant: "t2"))
        #expect(heard.withLock { $0 } == [.pending, .claimed, .approved])
        #expect(events.watched == [ChallengeEvents.Watched(tenantID: "t1", challengeID: "c")])
        #expect(events.isWatched(tenantID: "t1", challengeID: "c") && !events.isWatched(tenantID: "t2", challengeID: "c"))
        events.unsubscribe(subscription)
        #expect(events.watchedCount == 0)
    }

    @Test func `the re-check publishes a change no announcement brought`() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("a.sqlite"))
        try await store.insertTenant(StoreTests.tenant())
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        var challenge = Self.challenge(.pending)
        challenge.kind = .qrCode
        #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        let events = ChallengeEvents()
        let bridge = ChallengeEventBridge(store: store, events: events, logger: Logger(minimumLevel: .error))
        let heard = AssentLock<[Challenge.State]>([])
        _ = events.subscribe(tenantID: "t1", challengeID: "c") { c in heard.withLock { $0.append(c.state) } }
        // Changed behind the bus's back (as by an instance whose announcement was lost).
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k", state: .challengeRequired, now: 2)
        _ = try await store.claimChallenge(
            tenantID: "t1", id: "c", authenticator: StoreTests.device("d1", key: 1), anonymousAction: action, now: 2)
        await bridge.recheck()
        await bridge.recheck()
        #expect(heard.withLock { $0 } == [.claimed])
        await store.close()
    }
}
