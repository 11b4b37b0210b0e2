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
