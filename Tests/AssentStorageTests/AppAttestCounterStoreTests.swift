@testable import AssentServerCore
@testable import AssentStorage
import AssentSync
import AssentWire
import Testing

/// An App Attest assertion's counter is stored with the answer it authorised, compare-and-set in the answer's own
/// transaction: of answers carrying one counter exactly one is recorded, across two store instances on one
/// database, and a refused one changes nothing.
@Suite(.serialized) struct AppAttestCounterStoreTests {
    static func attested(counter: Int64) -> Authenticator {
        var device = StoreTests.device("d1", key: 1)
        device.attestation = CredentialAttestation(
            format: "apple-appattest", verified: true, app: "TEAM.app", environment: "production", verifiedAt: 1)
        device.appAttestKeyID = Array(repeating: 1, count: 32)
        device.appAttestPublicKey = [4] + Array(repeating: 1, count: 64)
        device.appAttestCounter = counter
        return device
    }

    static func answer(
        _ store: any ServerStore, _ id: String, counter: Int64?, approved: Bool = true
    ) async throws -> Challenge? {
        try await store.answerChallenge(
            tenantID: "t1", id: id, from: [.pending], approved: approved, authenticatorID: "d1", verificationMethod: .push,
            now: 20, pushGuardOf: nil, appAttestCounter: counter, recording: nil
        ).challenge
    }

    @Test(arguments: StoreKind.allCases)
    func `concurrent answers with one counter across instances: exactly one is recorded`(kind: StoreKind) async throws {
        let (fixture, stores) = try await StoreConcurrencyTests.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await stores[0].insertAuthenticator(Self.attested(counter: 4), audit: nil)
        let count = 12
        for i in 0..<count {
            #expect(try await stores[0].insertChallenge(StoreTests.pushChallenge("c\(i)"), maxOpenForUser: nil))
        }
        let refused = AssentLock(0)
        let winners = try await StoreConcurrencyTests.race(stores, count: count) { store, i in
            do {
                return try await Self.answer(store, "c\(i)", counter: 5) != nil
            } catch is AppAttestCounterUsed {
                refused.withLock { $0 += 1 }
                return false
            }
        }
        #expect(winners == 1)
        #expect(refused.withLock { $0 } == count - 1)
        var pending = 0
        for i in 0..<count where try await stores[1].challenge(tenantID: "t1", id: "c\(i)")?.state == .pending {
            pending += 1
        }
        #expect(pending == count - 1, "a refused answer leaves its challenge pending")
        let stored = try await stores[1].authenticators(tenantID: "t1", userID: "u")
        #expect(stored.map(\.appAttestCounter) == [5])
    }

    @Test(arguments: StoreKind.allCases)
    func `a counter not above the stored one is refused and changes nothing; one above it advances`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(Self.attested(counter: 7), audit: nil)
        let key = "k"
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: key, state: .challengeRequired, now: 1)
        _ = try await store.trackAction(action, user: { $0 ?? User(tenantID: "t1", userID: "u", now: 1) }, decide: { _, _ in })
        #expect(try await store.insertChallenge(StoreTests.pushChallenge("c", key: key), maxOpenForUser: nil))
        for (counter, approved) in [(Int64(7), true), (3, false)] {
            await #expect(throws: AppAttestCounterUsed.self) { _ = try await Self.answer(store, "c", counter: counter, approved: approved) }
            #expect(try await store.challenge(tenantID: "t1", id: "c")?.state == .pending)
            #expect(try await store.action(tenantID: "t1", idempotencyKey: key)?.state == .challengeRequired)
            #expect(try await store.authenticators(tenantID: "t1", userID: "u").first?.lastVerifiedAt == nil)
        }
        #expect(try await Self.answer(store, "c", counter: 8)?.state == .approved)
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").first?.appAttestCounter == 8)
        #expect(try await store.action(tenantID: "t1", idempotencyKey: key)?.state == .challengeSucceeded)
    }
}
