/// A device's approval or denial of a challenge (``ChallengeDecisions``), as the HTTP layer parsed it: what it
/// decides and the signatures that prove the device decided it. The device's key travels beside it as a
/// ``DeviceKey``.
package struct ChallengeAnswer: Sendable {
    /// The challenge.
    package var challengeID: String
    /// Approve (true) or deny (false).
    package var approved: Bool
    /// The signature over the challenge id (a compatible credential) or over Assent's bound decision message.
    package var signature: String
    /// The code the initiating page shows, when number matching is on (empty: none).
    package var verificationCode: String?
    /// Assent's bound signature over the decision message, which a bound credential (or a tenant that requires it)
    /// must send.
    package var boundSignature: String?
    /// "This wasn't me", on a denial of a push challenge.
    package var reportsFraud: Bool
    /// Base64 of an App Attest assertion over the bound decision message, where the tenant requires attested
    /// approvals.
    package var appAttestAssertion: String?

    /// An answer to `challengeID`.
    package init(
        challengeID: String, approved: Bool, signature: String, verificationCode: String?, boundSignature: String?,
        reportsFraud: Bool, appAttestAssertion: String?
    ) {
        self.challengeID = challengeID
        self.approved = approved
        self.signature = signature
        self.verificationCode = verificationCode
        self.boundSignature = boundSignature
        self.reportsFraud = reportsFraud
        self.appAttestAssertion = appAttestAssertion
    }
}
