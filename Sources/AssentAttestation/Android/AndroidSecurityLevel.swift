/// Where an Android key lives, as KeyDescription's `SecurityLevel` says (ordered: software < TEE < StrongBox).
package enum AndroidSecurityLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// 0: Android's software keystore (no hardware protection).
    case software = 0
    /// 1: a trusted execution environment (the tenant setting's `tee`).
    case trustedEnvironment = 1
    /// 2: a StrongBox secure element (the tenant setting's `strongbox`).
    case strongBox = 2

    /// The name tenant settings and verdicts use: `software`, `tee`, `strongbox`.
    package var name: String {
        switch self {
        case .software: "software"
        case .trustedEnvironment: "tee"
        case .strongBox: "strongbox"
        }
    }

    /// Orders by protection.
    package static func < (lhs: AndroidSecurityLevel, rhs: AndroidSecurityLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

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
