import AssentServerCore
import AssentWire

extension ClaimChallengeResponse {
    /// What the claiming device is shown. `ipAddress` and `userAgent` are always sent, as the QR document marks them
    /// required: an empty string when the page (or the tracked action) gave none, so the SDK can type them as plain
    /// strings.
    init(_ claimed: QRChallengeService.Claimed) {
        let challenge = claimed.challenge
        self.init(
            success: true, ipAddress: challenge.ipAddress ?? "", userAgent: challenge.userAgent ?? "",
            actionCode: challenge.actionCode, idempotencyKey: challenge.idempotencyKey, custom: claimed.publicCustom,
            user: claimed.publicUserCustom.map { ChallengeUser(custom: $0) }, location: claimed.location)
    }
}
