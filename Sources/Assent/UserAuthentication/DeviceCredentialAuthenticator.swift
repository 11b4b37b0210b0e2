import AssentCrypto

/// User authentication by a device passphrase (the Linux analogue of a phone's PIN): the prompt is answered by
/// `input`, which asks the user (a terminal, a dialog) and returns what they typed, or nil when they cancelled.
///
/// Only a PBKDF2-HMAC-SHA256 digest of the passphrase (random 16-byte salt) is kept, compared in constant time.
/// There are no biometrics: ``status()`` reports ``BiometricSystemStatus/notSupported``, and a key that allows
/// only ``AuthorizationType/biometric`` cannot be unlocked with it.
public struct DeviceCredentialAuthenticator: UserAuthenticator {
    private let salt: [UInt8]
    private let digest: [UInt8]
    private let iterations: Int
    private let input: @Sendable (AuthenticationPrompt) async -> String?

    /// An authenticator that accepts `passphrase`.
    ///
    /// - Parameters:
    ///   - passphrase: The device passphrase.
    ///   - iterations: PBKDF2 rounds (lower only in tests).
    ///   - input: Shows the prompt and returns the passphrase the user entered; nil when they cancelled.
    public init(
        passphrase: String, iterations: Int = 100_000, input: @escaping @Sendable (AuthenticationPrompt) async -> String?
    ) {
        let salt = SecureRandom.bytes(16)
        self.salt = salt
        self.iterations = max(1, iterations)
        self.digest = Self.derive(passphrase, salt: salt, iterations: max(1, iterations))
        self.input = input
    }

    /// No biometrics; the device credential is available.
    public func status() async -> UserAuthenticatorStatus {
        UserAuthenticatorStatus(systemStatus: .notSupported, biometryType: .none, isDeviceCredentialAvailable: true)
    }

    /// Asks for the passphrase once.
    public func authenticate(prompt: AuthenticationPrompt, allowing: AuthorizationType) async throws(UserAuthenticationError)
        -> AuthenticationMethod
    {
        guard allowing.allows(.deviceCredential) else {
            throw UserAuthenticationError(.notAvailable, "the key allows only biometrics and this device has none")
        }
        guard let entered = await input(prompt) else {
            throw UserAuthenticationError(.canceled, "the passphrase prompt was cancelled")
        }
        guard ConstantTime.equals(Self.derive(entered, salt: salt, iterations: iterations), digest) else {
            throw UserAuthenticationError(.failed, "wrong device passphrase")
        }
        return .deviceCredential
    }

    /// Nil: there are no biometrics to enrol.
    public func enrolmentFingerprint() async -> String? { nil }

    private static func derive(_ passphrase: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        (try? PBKDF2.deriveSHA256(password: Array(passphrase.utf8), salt: salt, iterations: iterations, outputByteCount: 32))
            ?? SHA256.hash(salt + Array(passphrase.utf8))
    }
}
