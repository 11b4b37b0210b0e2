import AssentWire
import Testing
@testable import AssentServerCore

/// What a re-enrolment of the same key keeps and what it takes from the device's new enrolment.
@Suite struct AuthenticatorReenrolmentTests {
    @Test func `a re-enrolment keeps the creation and verification times the enrolment answers`() {
        // Issue 22 §3.9: the enrolment answered a new verifiedAt (the SDK's createdAt) while the server API's list
        // kept the first createdAt for the same credential.
        var stored = Authenticator(id: "a1", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 1_000)
        stored.verifiedAt = 1_000
        stored.deviceName = "old phone"
        var candidate = Authenticator(id: "a2", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 9_000)
        candidate.verifiedAt = 9_000
        candidate.deviceName = "new phone"
        candidate.expiresAt = 99_000
        stored.reenrol(as: candidate)
        #expect(stored.id == "a1" && stored.createdAt == 1_000 && stored.verifiedAt == 1_000)
        #expect(stored.deviceName == "new phone" && stored.expiresAt == 99_000)
    }

    static func attested(keyID: UInt8, counter: Int64) -> Authenticator {
        var device = Authenticator(id: "a\(keyID)", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 1_000)
        device.attestation = CredentialAttestation(
            format: "apple-appattest", verified: true, app: "TEAM.app", environment: "production", verifiedAt: 1_000 + Int64(keyID))
        device.appAttestKeyID = Array(repeating: keyID, count: 32)
        device.appAttestPublicKey = [4] + Array(repeating: keyID, count: 64)
        device.appAttestCounter = counter
        return device
    }

    @Test func `a re-enrolment without an attestation keeps the recorded one, its App Attest key and its counter`() {
        var stored = Self.attested(keyID: 1, counter: 41)
        let recorded = stored
        // Reinstalling the app (or a box on the path) re-enrols the same key without an attestation.
        stored.reenrol(as: Authenticator(id: "a9", tenantID: "t", userID: "u", verificationMethod: .push, createdAt: 9_000))
        #expect(stored.attestation == recorded.attestation && stored.attestation?.verified == true)
        #expect(stored.appAttestKeyID == recorded.appAttestKeyID && stored.appAttestPublicKey == recorded.appAttestPublicKey)
        #expect(stored.appAttestCounter == 41, "the counter never goes back, so old assertions stay refused")
    }

    @Test func `a re-enrolment with a new attestation replaces the recorded one`() {
        var stored = Self.attested(keyID: 1, counter: 41)
        let fresh = Self.attested(keyID: 2, counter: 0)
        stored.reenrol(as: fresh)
        #expect(stored.id == "a1")
        #expect(stored.attestation == fresh.attestation && stored.appAttestKeyID == fresh.appAttestKeyID)
        #expect(stored.appAttestPublicKey == fresh.appAttestPublicKey && stored.appAttestCounter == 0)
    }
}
