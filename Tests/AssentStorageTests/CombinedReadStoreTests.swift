@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import AssentWire
import Testing

/// The store calls that do in one unit what a request needed several for (one round trip on PostgreSQL): a token's
/// validation reads and marks its action, a push start reads its action, guard and authenticators, a push verify
/// reads its challenge and action. On both stores they answer exactly what the separate calls answer. Serialized like
/// the other PostgreSQL suites.
@Suite(.serialized) struct CombinedReadStoreTests {
    static func tracked(_ store: any ServerStore, key: String, user: String = "u") async throws -> Action {
        let action = Action(tenantID: "t1", userID: user, actionCode: "signIn", idempotencyKey: key,
                            state: .challengeRequired, now: 10)
        return try await store.trackAction(
            action, user: { $0 ?? User(tenantID: "t1", userID: user, now: 10) }, decide: { _, _ in }).action
    }

    @Test(arguments: StoreKind.allCases)
    func `a validation marks only the eligible, succeeded action of its user, and only once`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        _ = try await Self.tracked(store, key: "k1")
        func validate(user: String = "u", code: String = "signIn", mark: Bool = true) async throws -> ActionValidation {
            try await store.validateAction(
                tenantID: "t1", idempotencyKey: "k1", userID: user, actionCode: code, mark: mark, at: 50)
        }
        let waiting = try await validate()
        #expect(waiting.action?.state == .challengeRequired && waiting.marked == false, "not succeeded yet")
        _ = try await store.updateActionState(
            tenantID: "t1", idempotencyKey: "k1", state: .challengeSucceeded, verificationMethod: .push, at: 20)
        #expect(try await validate(mark: false).marked == false, "the caller said the token may not mark it")
        #expect(try await validate(user: "other").marked == false, "another user's token")
        #expect(try await validate(code: "transfer").marked == false, "another action's token")
        let first = try await validate()
        #expect(first.marked && first.action?.state == .challengeSucceeded && first.action?.userID == "u")
        #expect(try await validate().marked == false, "validated once")
        let missing = try await store.validateAction(
            tenantID: "t1", idempotencyKey: "nope", userID: "u", actionCode: "signIn", mark: true, at: 50)
        #expect(missing.action == nil && missing.marked == false)
    }

    @Test(arguments: StoreKind.allCases)
    func `a push start's and a verify's combined reads answer what the separate reads answer`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let action = try await Self.tracked(store, key: "k2")
        for id in ["a1", "a2"] {
            try await store.insertAuthenticator(
                Authenticator(id: id, tenantID: "t1", userID: "u", verificationMethod: .push, createdAt: 5))
        }
        var challenge = Challenge(id: "c1", tenantID: "t1", kind: .push, createdAt: 100, expiresAt: 200)
        challenge.userID = "u"
        challenge.idempotencyKey = "k2"
        challenge.actionCode = "signIn"
        #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))

        // At 300 the challenge expired unanswered: the guard counts it.
        let reads = try await store.pushStartReads(tenantID: "t1", idempotencyKey: "k2", userID: "u", now: 300)
        let pushGuard = try await store.pushGuard(tenantID: "t1", userID: "u", now: 300)
        #expect(reads.action == action)
        #expect(reads.pushGuard == pushGuard && pushGuard.expiredAt == [200])
        #expect(reads.authenticators.map(\.id) == ["a1", "a2"])
        #expect(try await store.authenticators(tenantID: "t1", userID: "u") == reads.authenticators)
        let nothing = try await store.pushStartReads(tenantID: "t1", idempotencyKey: "none", userID: "nobody", now: 300)
        #expect(nothing.action == nil && nothing.pushGuard == PushGuardRead() && nothing.authenticators.isEmpty)

        let both = try await store.challengeAndAction(tenantID: "t1", id: "c1", idempotencyKey: "k2")
        #expect(both.challenge == (try await store.challenge(tenantID: "t1", id: "c1")) && both.action == action)
        let neither = try await store.challengeAndAction(tenantID: "t1", id: "c9", idempotencyKey: "k9")
        #expect(neither.challenge == nil && neither.action == nil)
    }
}
