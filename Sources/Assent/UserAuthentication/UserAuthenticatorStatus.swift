/// What a ``UserAuthenticator`` can do right now.
public struct UserAuthenticatorStatus: Sendable, Hashable, Codable {
    /// Whether biometric authentication can be used.
    public var systemStatus: BiometricSystemStatus
    /// The biometric sensor, ``BiometryType/none`` without one.
    public var biometryType: BiometryType
    /// Whether a device credential (PIN, passphrase) can authenticate the user.
    public var isDeviceCredentialAvailable: Bool

    /// Creates a status.
    public init(systemStatus: BiometricSystemStatus, biometryType: BiometryType, isDeviceCredentialAvailable: Bool) {
        self.systemStatus = systemStatus
        self.biometryType = biometryType
        self.isDeviceCredentialAvailable = isDeviceCredentialAvailable
    }

    /// Whether an authentication of `type` could succeed now.
    public func canAuthenticate(_ type: AuthorizationType) -> Bool {
        switch type {
        case .biometric: systemStatus == .available
        case .deviceCredential: isDeviceCredentialAvailable
        case .biometricOrDeviceCredential: systemStatus == .available || isDeviceCredentialAvailable
        }
    }
}
