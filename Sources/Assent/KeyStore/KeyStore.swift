/// Where the device keeps its signing keys and secrets: one P-256 key per name (``AssentPush/keyName`` for push), and
/// small secret blobs by name (the PowerAuth activation's protected keys).
///
/// The SDK loads a key before every signed call, creates one at enrolment when none exists (an existing key is
/// reused, as the official SDKs do) and deletes it when the credential is removed. Implementations: ``FileKeyStore``
/// for Linux, `InMemoryKeyStore` (library `AssentTesting`) for tests; a platform adapter can back it with the
/// Keychain / Secure Enclave.
public protocol KeyStore: Sendable {
    /// The key stored under `name`, or nil when there is none.
    ///
    /// - Throws: ``KeyStoreError`` when a key exists but cannot be read (wrong passphrase, damaged file, unsafe
    ///   permissions). Never answers nil in that case: the caller must not replace a key it merely failed to read.
    func loadKey(named name: String) async throws -> (any SigningKey)?

    /// Generates a new key under `name`, replacing any key stored there, with `accessPolicy` recorded with it.
    func createKey(named name: String, accessPolicy: KeyAccessPolicy) async throws -> any SigningKey

    /// Deletes the key under `name`; returns whether there was one.
    @discardableResult
    func deleteKey(named name: String) async throws -> Bool

    /// The secret stored under `name`, or nil when there is none. Same failure rules as ``loadKey(named:)``.
    func loadSecret(named name: String) async throws -> [UInt8]?

    /// Stores `secret` under `name` (protected at rest as keys are), replacing any secret stored there.
    func storeSecret(_ secret: [UInt8], named name: String) async throws

    /// Deletes the secret under `name`; returns whether there was one.
    @discardableResult
    func deleteSecret(named name: String) async throws -> Bool
}

extension KeyStore {
    /// Generates a new key under `name` whose only policy is `userPresenceRequired` (iOS style).
    public func createKey(named name: String, userPresenceRequired: Bool) async throws -> any SigningKey {
        try await createKey(named: name, accessPolicy: KeyAccessPolicy(userPresenceRequired: userPresenceRequired))
    }
}
