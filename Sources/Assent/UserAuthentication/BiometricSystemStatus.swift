/// Whether biometric authentication can be used on this system right now (biometry-setup.md's `systemStatus`).
public enum BiometricSystemStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Biometrics are present, enrolled and usable.
    case available = "OK"
    /// The sensor is present but nothing (no finger, no face) is enrolled.
    case notEnrolled = "NOT_ENROLLED"
    /// The sensor is present but cannot be used now (hardware busy, disabled by policy).
    case notAvailable = "NOT_AVAILABLE"
    /// The device has no biometric sensor, or the platform offers none to apps.
    case notSupported = "NOT_SUPPORTED"
    /// Too many failed attempts: biometrics are locked until the user unlocks the device otherwise.
    case lockout = "LOCKOUT"
}
