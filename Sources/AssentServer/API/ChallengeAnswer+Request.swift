import AssentServerCore
import AssentWire

extension ChallengeAnswer {
    /// The answer a device sent to `.../push/challenge` or `.../qr-code/challenge` (`reportFraud` absent: false).
    init(_ update: UpdateChallengeRequest) {
        self.init(
            challengeID: update.challengeId, approved: update.approved, signature: update.signature,
            verificationCode: update.verificationCode, boundSignature: update.boundSignature,
            reportsFraud: update.reportFraud == true, appAttestAssertion: update.appAttestAssertion)
    }
}
