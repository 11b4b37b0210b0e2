/// Encryption of the activation status blob under `KEY_TRANSPORT` (AES-128-CBC, no padding, with an IV derived from
/// the client's challenge and the server's nonce).
public enum PowerAuthStatusBlob: Sendable {
    /// `STATUS_IV = KDF_INTERNAL(KDF(KEY_TRANSPORT, 3000), challenge || nonce)`.
    ///
    /// - Throws: `CryptoError.invalidKey` unless `transportKey` is 16 bytes.
    public static func iv(transportKey: [UInt8], challenge: [UInt8], nonce: [UInt8]) throws -> [UInt8] {
        let ivKey = try PowerAuth.kdf(transportKey, index: PowerAuth.KeyIndex.statusBlobIV)
        return PowerAuth.kdfInternal(ivKey, data: challenge + nonce)
    }

    /// `CTR_DATA_HASH = KDF_INTERNAL(KDF(KEY_TRANSPORT, 4000), CTR_DATA)`.
    ///
    /// - Throws: `CryptoError.invalidKey` unless `transportKey` is 16 bytes.
    public static func counterDataHash(transportKey: [UInt8], counterData: [UInt8]) throws -> [UInt8] {
        let hashKey = try PowerAuth.kdf(transportKey, index: PowerAuth.KeyIndex.statusBlobCounter)
        return PowerAuth.kdfInternal(hashKey, data: counterData)
    }

    /// Encrypts `status` for the client that sent `challenge` (16 bytes), with the server's `nonce` (16 bytes).
    ///
    /// - Throws: `CryptoError.invalidKey` / `.invalidInput` for wrong sizes.
    public static func encrypt(
        _ status: PowerAuthActivationStatus, transportKey: [UInt8], challenge: [UInt8], nonce: [UInt8]
    ) throws -> [UInt8] {
        try checkSizes(challenge: challenge, nonce: nonce)
        let iv = try iv(transportKey: transportKey, challenge: challenge, nonce: nonce)
        return try AES.CBC.encrypt(status.bytes, key: transportKey, iv: iv, padding: false)
    }

    /// Decrypts and parses a 32-byte encrypted blob.
    ///
    /// - Throws: `CryptoError.invalidInput` for wrong sizes or a blob that does not decrypt to a valid status.
    public static func decrypt(
        _ encrypted: [UInt8], transportKey: [UInt8], challenge: [UInt8], nonce: [UInt8]
    ) throws -> PowerAuthActivationStatus {
        try checkSizes(challenge: challenge, nonce: nonce)
        guard encrypted.count == 32 else {
            throw CryptoError(.invalidInput, "encrypted status blob must be 32 bytes, got \(encrypted.count)")
        }
        let iv = try iv(transportKey: transportKey, challenge: challenge, nonce: nonce)
        return try PowerAuthActivationStatus(bytes: AES.CBC.decrypt(encrypted, key: transportKey, iv: iv, padding: false))
    }

    private static func checkSizes(challenge: [UInt8], nonce: [UInt8]) throws(CryptoError) {
        guard challenge.count == 16, nonce.count == 16 else {
            throw CryptoError(.invalidInput, "status challenge and nonce must be 16 bytes each")
        }
    }
}
