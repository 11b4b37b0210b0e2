/// The platform's user authentication — biometrics and the device credential — as the SDK reaches it.
///
/// The SDK asks it before every use of a key that requires user authentication (``KeyAccessPolicy``) and before it
/// releases the biometry factor's unlock key. Implementations: ``DeviceCredentialAuthenticator`` (a passphrase) and
/// ``SimulatedBiometricAuthenticator`` (demos and tests) on Linux, ``UnavailableUserAuthenticator`` when a device has
/// neither; a LocalAuthentication or BiometricPrompt adapter on Apple and Android platforms.
public protocol UserAuthenticator: Sendable {
    /// What the device can do right now (biometrics available, not enrolled, locked out, ...).
    func status() async -> UserAuthenticatorStatus

    /// Shows `prompt` and waits for the user.
    ///
    /// - Parameter allowing: Which methods may satisfy the prompt.
    /// - Returns: How the user authenticated, one of the methods `allowing` permits.
    /// - Throws: ``UserAuthenticationError`` when the user failed, cancelled, is locked out, or no allowed method is
    ///   available.
    func authenticate(prompt: AuthenticationPrompt, allowing: AuthorizationType) async throws(UserAuthenticationError)
        -> AuthenticationMethod

    /// An opaque value that changes whenever the set of enrolled biometrics changes (a finger or face added or
    /// removed; iOS's `evaluatedPolicyDomainState`). Nil without enrolled biometrics.
    func enrolmentFingerprint() async -> String?
}
