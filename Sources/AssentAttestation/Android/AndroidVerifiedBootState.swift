/// RootOfTrust's `VerifiedBootState`.
package enum AndroidVerifiedBootState: Int, Sendable, Hashable, CaseIterable {
    /// 0: the boot chain verified with the device's own key (a locked, stock device).
    case verified = 0
    /// 1: verified with a user-installed key.
    case selfSigned = 1
    /// 2: not verified (an unlocked bootloader).
    case unverified = 2
    /// 3: verification failed.
    case failed = 3

    /// The name verdicts use: `verified`, `selfSigned`, `unverified`, `failed`.
    package var name: String {
        switch self {
        case .verified: "verified"
        case .selfSigned: "selfSigned"
        case .unverified: "unverified"
        case .failed: "failed"
        }
    }
}
