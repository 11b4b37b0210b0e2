@testable import AssentServerCore
@testable import AssentStorage
import Testing

/// An attested enrolment on both stores: its challenge is spent in the enrolment's transaction, once; an App Attest
/// key id vouches for one credential; the verdict round-trips with the credential.
@Suite(.serialized) struct AttestedEnrolmentStoreTests {
    static func challenge(_ value: String, user: String = "u") -> AttestationChallenge {
        AttestationChallenge(value: value, tenantID: "t1", userID: user, createdAt: 1, expiresAt: 1_000)
    }

    static func attested(_ id: String, user: String = "u", key: UInt8, keyID: UInt8) -> Authenticator {
        var device = StoreTests.device(id, user: user, key: key)
        device.attestation = CredentialAttestation(
            format: "apple-appattest", verified: true, app: "TEAM.app", environment: "production", verifiedAt: 7)
        device.appAttestKeyID = Array(repeating: keyID, count: 32)
        device.appAttestPublicKey = [4] + Array(repeating: keyID, count: 64)
        device.appAttestCounter = 0
        return device
    }

    func enrol(
        _ store: any ServerStore, _ candidate: Authenticator, key: String, challenge: String, at: Int64 = 10
    ) async throws -> DeviceCredentialEnrolment {
        try await store.enrollDeviceCredential(
            candidate, enrolmentKey: key,
            attestation: AttestationChallengeUse(challenge: challenge, userID: candidate.userID, at: at),
            reenrol: { $0.reenrol(as: candidate) }, audit: { _ in nil }, events: { _, _ in [] })
    }

    @Test(arguments: StoreKind.allCases)
    func `a challenge is spent once, by its own user, while open, and nothing is stored otherwise`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        for (key, user) in [("k1", "u"), ("k2", "u"), ("k3", "v"), ("k4", "u")] {
            try await StoreTests.enrolmentAction(store, key: key, user: user)
        }
        try await store.insertAttestationChallenge(Self.challenge("c1"))
        try await store.insertAttestationChallenge(Self.challenge("c2"))

        let first = try await enrol(store, Self.attested("a1", key: 1, keyID: 1), key: "k1", challenge: "c1")
        #expect(first.created)
        let stored = try #require(try await store.authenticators(tenantID: "t1", userID: "u").first)
        #expect(stored.attestation == Self.attested("a1", key: 1, keyID: 1).attestation)
        #expect(stored.appAttestKeyID == Array(repeating: 1, count: 32) && stored.appAttestCounter == 0)
        #expect(try await store.attestationChallenge(tenantID: "t1", value: "c1")?.spentAt == 10)

        // Spent: a second enrolment with it stores nothing.
        await #expect(throws: AttestationChallengeSpent.self) {
            _ = try await enrol(store, Self.attested("a2", key: 2, keyID: 2), key: "k2", challenge: "c1")
        }
        // Another user's, and expired.
        await #expect(throws: AttestationChallengeSpent.self) {
            _ = try await enrol(store, Self.attested("a3", user: "v", key: 3, keyID: 3), key: "k3", challenge: "c2")
        }
        await #expect(throws: AttestationChallengeSpent.self) {
            _ = try await enrol(store, Self.attested("a2", key: 2, keyID: 2), key: "k2", challenge: "c2", at: 1_000)
        }
        // The App Attest key id of another credential.
        await #expect(throws: AttestationKeyUsed.self) {
            _ = try await enrol(store, Self.attested("a2", key: 2, keyID: 1), key: "k2", challenge: "c2")
        }
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").map(\.id) == ["a1"])
        #expect(try await store.authenticators(tenantID: "t1", userID: "v").isEmpty)
        #expect(try await store.attestationChallenge(tenantID: "t1", value: "c2")?.spentAt == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func `a credential stays attested only while its key is the same`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        for key in ["k1", "k2", "k3"] { try await StoreTests.enrolmentAction(store, key: key) }
        try await store.insertAttestationChallenge(Self.challenge("c1"))
        let attested = Self.attested("a1", key: 1, keyID: 1)
        _ = try await enrol(store, attested, key: "k1", challenge: "c1")

        // The same key again, without an attestation: the same credential, still attested.
        let again = StoreTests.device("a2", key: 1)
        let reenrolled = try await store.enrollDeviceCredential(
            again, enrolmentKey: "k2", attestation: nil, reenrol: { $0.reenrol(as: again) }, audit: { _ in nil },
            events: { _, _ in [] })
        #expect(!reenrolled.created && reenrolled.authenticator.id == "a1")
        #expect(reenrolled.authenticator.attestation == attested.attestation)
        // Another key of the same user, without one: a new credential, not attested.
        let other = StoreTests.device("a3", key: 3)
        let created = try await store.enrollDeviceCredential(
            other, enrolmentKey: "k3", attestation: nil, reenrol: { $0.reenrol(as: other) }, audit: { _ in nil },
            events: { _, _ in [] })
        #expect(created.created && created.authenticator.attestation == nil)
        let stored = try await store.authenticators(tenantID: "t1", userID: "u")
        #expect(stored.map(\.id) == ["a1", "a3"])
        #expect(stored.map { $0.attestation?.verified == true } == [true, false])
        #expect(stored[0].appAttestKeyID == attested.appAttestKeyID && stored[0].appAttestCounter == 0)
    }
}
