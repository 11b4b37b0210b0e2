/// What the device keeps about its activation (one ``KeyStore`` secret, sealed at rest like keys), as the mobile
/// SDK's `PersistentData`: no factor key in the clear.
///
/// - possession and transport keys: `AES-128-CBC-NoPad(deviceRelatedKey, IV 0, key)`;
/// - knowledge key: `AES-128-CBC-NoPad(PBKDF2-HMAC-SHA1(password, salt, 10000, 16), IV 0, key)`;
/// - biometry key (when added): `AES-128-CBC-NoPad(biometryUnlockKey, IV 0, key)`, the unlock key kept behind the
///   ``UserAuthenticator`` (``BiometryUnlockItem``);
/// - device private key: `AES-128-CBC-PKCS7(KEY_ENCRYPTION_VAULT, IV 0, scalar)`; the vault key is never stored.
struct ActivationData: Codable, Sendable {
    var activationId: String
    var applicationKey: String
    var applicationSecret: String
    var serverPublicKey: String
    var activationFingerprint: String
    /// `CTR_DATA`, Base64.
    var counterData: String
    /// The low byte of the number of signatures computed.
    var counterByte: Int
    var possessionKey: String
    var transportKey: String
    var knowledgeKey: String
    var passwordSalt: String
    var passwordIterations: Int
    var biometryKey: String?
    var devicePrivateKey: String
}
