/// Biometry on the first two of biometry-setup.md's three levels: the system, and this activation.
public struct BiometricStatus: Sendable, Hashable, Codable {
    /// Whether a biometric signature can be computed now: the system is available and the activation has the factor.
    public var isAuthenticationWithBiometricsAvailable: Bool
    /// The sensor's kind.
    public var biometryType: BiometryType
    /// The system's status (`OK`, `NOT_ENROLLED`, `LOCKOUT`, ...).
    public var systemStatus: BiometricSystemStatus
    /// Whether the activation has biometry factor data.
    public var isBiometricFactorConfigured: Bool

    /// Creates a status.
    public init(
        isAuthenticationWithBiometricsAvailable: Bool, biometryType: BiometryType, systemStatus: BiometricSystemStatus,
        isBiometricFactorConfigured: Bool
    ) {
        self.isAuthenticationWithBiometricsAvailable = isAuthenticationWithBiometricsAvailable
        self.biometryType = biometryType
        self.systemStatus = systemStatus
        self.isBiometricFactorConfigured = isBiometricFactorConfigured
    }
}
