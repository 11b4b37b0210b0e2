/// A device with no user authentication at all: every prompt fails with
/// ``UserAuthenticationError/Code/notAvailable``, so a key that requires user authentication cannot be used. The
/// default of ``Assent/init(tenantID:baseURL:)``.
public struct UnavailableUserAuthenticator: UserAuthenticator {
    /// Creates the authenticator.
    public init() {}

    /// Biometrics not supported, no device credential.
    public func status() async -> UserAuthenticatorStatus {
        UserAuthenticatorStatus(systemStatus: .notSupported, biometryType: .none, isDeviceCredentialAvailable: false)
    }

    /// Always fails with ``UserAuthenticationError/Code/notAvailable``.
    public func authenticate(prompt: AuthenticationPrompt, allowing: AuthorizationType) async throws(UserAuthenticationError)
        -> AuthenticationMethod
    {
        throw UserAuthenticationError(.notAvailable, "this device has no user authentication configured")
    }

    /// Nil: nothing is enrolled.
    public func enrolmentFingerprint() async -> String? { nil }
}
