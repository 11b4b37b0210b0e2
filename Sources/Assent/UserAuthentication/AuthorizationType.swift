/// Which kinds of user authentication may unlock a key (Android's `authorizationType`, from
/// `KeyProperties.AUTH_DEVICE_CREDENTIAL` = 1 and `AUTH_BIOMETRIC_STRONG` = 2).
public enum AuthorizationType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Biometrics only.
    case biometric = "BIOMETRIC"
    /// The device PIN, pattern or passphrase only.
    case deviceCredential = "DEVICE_CREDENTIAL"
    /// Either.
    case biometricOrDeviceCredential = "BIOMETRIC_OR_DEVICE_CREDENTIAL"

    /// The Android bit mask: 1 device credential, 2 biometric, 3 either. 0 (the documents' example value) means
    /// "the platform default", taken here as either.
    public init?(androidValue: Int) {
        switch androidValue {
        case 0, 3: self = .biometricOrDeviceCredential
        case 1: self = .deviceCredential
        case 2: self = .biometric
        default: return nil
        }
    }

    /// The `addCredential(…authorizationType: Int…)` overloads' answer to a mask ``init(androidValue:)`` refuses.
    static func invalid<T>(_ value: Int) -> AssentResponse<T> {
        AssentResponse(
            error: "authorizationType \(value) is not an Android authenticator mask: use 0 (the platform default), "
                + "1 (device credential), 2 (biometric) or 3 (either)",
            errorCode: AssentErrorCode.invalidAuthorizationType)
    }

    /// Whether an authentication by `method` satisfies this type.
    public func allows(_ method: AuthenticationMethod) -> Bool {
        switch (self, method) {
        case (.biometricOrDeviceCredential, _), (.biometric, .biometric), (.deviceCredential, .deviceCredential): true
        default: false
        }
    }
}
