/// How a challenge stands for the page that started it, which polls it (``PushChallengeService/verify(tenant:claims:challengeID:)``,
/// ``QRChallengeService/verify(tenant:challengeID:deviceCode:)``): whether a device claimed it (QR), whether it is over
/// (answered or expired), whether it was approved, and the access token an approval gives the backend to validate.
/// The HTTP layer answers it as the push or QR verify response.
package struct ChallengeProgress: Sendable, Hashable {
    /// A device claimed it (a QR code was scanned); a push challenge is never claimed.
    package var isClaimed: Bool
    /// It was answered or has expired: polling again changes nothing.
    package var isConsumed: Bool
    /// It was approved.
    package var isVerified: Bool
    /// For an approval, the token the backend validates (nil otherwise, or when the action is gone).
    package var accessToken: String?

    /// A challenge's standing.
    package init(isClaimed: Bool = false, isConsumed: Bool, isVerified: Bool, accessToken: String? = nil) {
        self.isClaimed = isClaimed
        self.isConsumed = isConsumed
        self.isVerified = isVerified
        self.accessToken = accessToken
    }
}
