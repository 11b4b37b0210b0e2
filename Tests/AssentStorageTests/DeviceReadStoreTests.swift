@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import AssentWire
import Testing

/// What a device's get-challenge and answer read in one unit (one round trip on PostgreSQL) — the credential named by
/// its key with the newest pending push challenge it may answer, or with the challenge it answers — and an answer that
/// reads the push guard after it: on both stores they answer exactly what the separate calls answer. Serialized like
/// the other PostgreSQL suites.
@Suite(.serialized) struct DeviceReadStoreTests {
    @Test(arguments: StoreKind.allCases)
    func `a get-challenge's combined read answers what the credential and pending-challenge reads answer`(
        kind: StoreKind
    ) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        try await store.insertAuthenticator(StoreTests.device("d2", key: 2))
        try await store.insertAuthenticator(StoreTests.device("o1", user: "other", key: 3))
        var qr = StoreTests.device("q1", key: 4)
        qr.verificationMethod = .device
        try await store.insertAuthenticator(qr)
        // Oldest first: an open one for both devices, one only d2 may answer, one of another user, one answered.
        var forBoth = StoreTests.pushChallenge("c1", now: 10)
        forBoth.expiresAt = 1_000
        var forD2 = StoreTests.pushChallenge("c2", now: 20)
        forD2.targetAuthenticatorID = "d2"
        let others = StoreTests.pushChallenge("c3", user: "other", now: 30)
        let answered = StoreTests.pushChallenge("c4", now: 40)
        for challenge in [forBoth, forD2, others, answered] {
            #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        }
        #expect(try await store.answerChallenge(
            tenantID: "t1", id: "c4", from: [.pending], approved: false, authenticatorID: "d1",
            verificationMethod: .push, now: 50) != nil)

        func check(_ key: UInt8, now: Int64, expect id: String?, credential: String?) async throws {
            let key: [UInt8] = [0x30, 0x00, key, 0xff]
            let read = try await store.pushCredentialAndPendingChallenge(tenantID: "t1", publicKey: key, now: now)
            #expect(read.authenticator?.id == credential, "credential of key \(key)")
            #expect(read.challenge?.id == id, "challenge for key \(key) at \(now)")
            if let authenticator = try await store.authenticator(tenantID: "t1", method: .push, publicKey: key) {
                #expect(read.authenticator == authenticator)
                let separate = try await store.pendingPushChallenge(
                    tenantID: "t1", userID: authenticator.userID, authenticatorID: authenticator.id, now: now)
                #expect(read.challenge == separate, "the same challenge as the separate read")
            }
        }
        try await check(1, now: 60, expect: "c1", credential: "d1")  // not c2 (d2's), not c4 (answered)
        try await check(2, now: 60, expect: "c2", credential: "d2")  // the newest it may answer
        try await check(3, now: 60, expect: "c3", credential: "o1")  // its own user's only
        try await check(1, now: 1_000, expect: nil, credential: "d1")  // c1 expired
        try await check(4, now: 60, expect: nil, credential: nil)  // a QR credential's key is no push credential
        try await check(9, now: 60, expect: nil, credential: nil)  // an unknown key
        let elsewhere = try await store.pushCredentialAndPendingChallenge(
            tenantID: "t2", publicKey: [0x30, 0x00, 1, 0xff], now: 60)
        #expect(elsewhere.authenticator == nil && elsewhere.challenge == nil, "another tenant sees nothing")
    }

    @Test(arguments: StoreKind.allCases)
    func `an answer's combined read answers what the credential and challenge reads answer`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        #expect(try await store.insertChallenge(StoreTests.pushChallenge("c1"), maxOpenForUser: nil))
        let key: [UInt8] = [0x30, 0x00, 1, 0xff]
        let both = try await store.credentialAndChallenge(tenantID: "t1", method: .push, publicKey: key, challengeID: "c1")
        #expect(both.authenticator == (try await store.authenticator(tenantID: "t1", method: .push, publicKey: key)))
        #expect(both.authenticator?.id == "d1")
        #expect(both.challenge == (try await store.challenge(tenantID: "t1", id: "c1")) && both.challenge?.id == "c1")
        let otherMethod = try await store.credentialAndChallenge(
            tenantID: "t1", method: .device, publicKey: key, challengeID: "c1")
        #expect(otherMethod.authenticator == nil && otherMethod.challenge?.id == "c1")
        let neither = try await store.credentialAndChallenge(
            tenantID: "t1", method: .push, publicKey: [1], challengeID: "c9")
        #expect(neither.authenticator == nil && neither.challenge == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func `an answer that reads the push guard returns what the guard read returns after it`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        // One challenge expired unanswered at 1010 (counted by the guard), one to answer.
        #expect(try await store.insertChallenge(StoreTests.pushChallenge("old", now: 10), maxOpenForUser: nil))
        #expect(try await store.insertChallenge(StoreTests.pushChallenge("c1", now: 1_500), maxOpenForUser: nil))
        let outcome = try await store.answerChallenge(
            tenantID: "t1", id: "c1", from: [.pending], approved: true, authenticatorID: "d1",
            verificationMethod: .push, now: 2_000, pushGuardOf: "u", recording: nil)
        #expect(outcome.challenge?.state == .approved)
        let read = try #require(outcome.pushGuard)
        let separate = try await store.pushGuard(tenantID: "t1", userID: "u", now: 2_000)
        #expect(read == separate && read.expiredAt == [1_010])
        // A refused answer (already answered) reports no challenge.
        let again = try await store.answerChallenge(
            tenantID: "t1", id: "c1", from: [.pending], approved: false, authenticatorID: "d1",
            verificationMethod: .push, now: 2_100, pushGuardOf: "u", recording: nil)
        #expect(again.challenge == nil)
        // Without a user to read for, nothing is read.
        #expect(try await store.insertChallenge(StoreTests.pushChallenge("c2", now: 2_200), maxOpenForUser: nil))
        let plain = try await store.answerChallenge(
            tenantID: "t1", id: "c2", from: [.pending], approved: true, authenticatorID: "d1",
            verificationMethod: .push, now: 2_300, pushGuardOf: nil, recording: nil)
        #expect(plain.challenge?.state == .approved && plain.pushGuard == nil)
    }
}
