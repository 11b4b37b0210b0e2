@testable import AssentServerCore
@testable import AssentStorage
import Testing

/// Attestation challenges on both stores: stored as issued, found only in their tenant, swept once expired.
@Suite(.serialized) struct AttestationChallengeStoreTests {
    @Test(arguments: StoreKind.allCases)
    func `an issued challenge reads back in its tenant only and is swept once expired`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let challenge = AttestationChallenge(
            value: "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA", tenantID: "t1", userID: "alice", createdAt: 1_000,
            expiresAt: 1_000 + AttestationChallenge.lifetimeMilliseconds)
        try await store.insertAttestationChallenge(challenge)
        #expect(try await store.attestationChallenge(tenantID: "t1", value: challenge.value) == challenge)
        #expect(try await store.attestationChallenge(tenantID: "t2", value: challenge.value) == nil)
        #expect(try await store.attestationChallenge(tenantID: "t1", value: "unknown") == nil)

        _ = try await store.sweep(now: challenge.expiresAt, challengesBefore: 0, eventsBefore: 0)
        #expect(try await store.attestationChallenge(tenantID: "t1", value: challenge.value) == challenge)
        _ = try await store.sweep(now: challenge.expiresAt + 1, challengesBefore: 0, eventsBefore: 0)
        #expect(try await store.attestationChallenge(tenantID: "t1", value: challenge.value) == nil)
    }
}
