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
}
