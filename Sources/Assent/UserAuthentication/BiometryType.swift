/// The kind of biometric sensor a device has, as biometry-setup.md's `biometryType` names it.
public enum BiometryType: String, Sendable, Hashable, Codable, CaseIterable {
    /// No biometric sensor (or none the app may use).
    case none = "NONE"
    /// A sensor of a kind the platform does not name.
    case generic = "GENERIC"
    /// Touch ID or a fingerprint reader.
    case fingerprint = "FINGERPRINT"
    /// Face ID or face unlock.
    case face = "FACE"
    /// An iris scanner.
    case iris = "IRIS"
}
