/// The keys both sides derive from `KEY_MASTER_SECRET` with the index KDF (all 16 bytes).
public struct PowerAuthDerivedKeys: Sendable, Hashable {
    /// `KEY_SIGNATURE_POSSESSION = KDF(master, 1)`.
    public let possession: [UInt8]
    /// `KEY_SIGNATURE_KNOWLEDGE = KDF(master, 2)`.
    public let knowledge: [UInt8]
    /// `KEY_SIGNATURE_BIOMETRY = KDF(master, 3)`.
    public let biometry: [UInt8]
    /// `KEY_TRANSPORT = KDF(master, 1000)`.
    public let transport: [UInt8]
    /// `KEY_ENCRYPTION_VAULT = KDF(master, 2000)`; never stored on the device.
    public let vault: [UInt8]

    /// Derives every key from the 16-byte master secret.
    ///
    /// - Throws: `CryptoError.invalidKey` unless `masterSecret` is 16 bytes.
    public init(masterSecret: [UInt8]) throws {
        possession = try PowerAuth.kdf(masterSecret, index: PowerAuth.KeyIndex.possession)
        knowledge = try PowerAuth.kdf(masterSecret, index: PowerAuth.KeyIndex.knowledge)
        biometry = try PowerAuth.kdf(masterSecret, index: PowerAuth.KeyIndex.biometry)
        transport = try PowerAuth.kdf(masterSecret, index: PowerAuth.KeyIndex.transport)
        vault = try PowerAuth.kdf(masterSecret, index: PowerAuth.KeyIndex.vault)
    }

    /// All three signature keys, for a verifier that must be able to check any signature type.
    public var signatureKeys: PowerAuthSignatureKeys {
        PowerAuthSignatureKeys(possession: possession, knowledge: knowledge, biometry: biometry)
    }
}
