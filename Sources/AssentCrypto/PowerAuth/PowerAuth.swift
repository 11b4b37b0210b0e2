/// PowerAuth 3.x primitives (the key hierarchy of `powerauth-crypto`, protocol V3.0–3.3, P-256): the byte-level
/// building blocks both the server and the SDK use, checked against the official test vectors.
///
/// Everything here is deterministic and free of I/O. The higher-level pieces live beside it:
/// ``PowerAuthDerivedKeys``, ``PowerAuthCounter``, ``PowerAuthSignature``, ``PowerAuthStatusBlob``,
/// ``PowerAuthFingerprint``, ``PowerAuthKnowledgeKey`` and ``PowerAuthRequestData``.
public enum PowerAuth: Sendable {
    /// Bytes in every PowerAuth symmetric key, in `CTR_DATA` and in the status-blob challenge and nonce.
    public static let keyByteCount = 16
    /// The protocol version Assent speaks and puts in `pa_version`.
    public static let protocolVersion = "3.3"
    /// The versions a `pa_version` may name (3.0 signs in decimal, 3.1 and later in base64).
    public static let supportedVersions: Set<String> = ["3.0", "3.1", "3.2", "3.3"]
    /// How many counter values ahead of the server's the server tries before giving up (distances 0...19).
    public static let defaultLookAhead = 20
    /// Failed non-possession signatures after which an activation is blocked.
    public static let defaultMaxFailedAttempts = 5
    /// PBKDF2-HMAC-SHA1 iterations protecting the knowledge key.
    public static let passwordIterations = 10_000

    /// KDF indexes of the keys derived from the master secret and the transport key.
    public enum KeyIndex {
        /// `KEY_SIGNATURE_POSSESSION`.
        public static let possession: UInt64 = 1
        /// `KEY_SIGNATURE_KNOWLEDGE`.
        public static let knowledge: UInt64 = 2
        /// `KEY_SIGNATURE_BIOMETRY`.
        public static let biometry: UInt64 = 3
        /// `KEY_TRANSPORT`.
        public static let transport: UInt64 = 1000
        /// `KEY_ENCRYPTION_VAULT`.
        public static let vault: UInt64 = 2000
        /// `KDF(KEY_TRANSPORT, 3000)`: derives the status-blob IV.
        public static let statusBlobIV: UInt64 = 3000
        /// `KDF(KEY_TRANSPORT, 4000)`: hashes `CTR_DATA` in the status blob.
        public static let statusBlobCounter: UInt64 = 4000
    }

    /// `convert32Bto16B`: `r[i] = x[i] XOR x[i+16]`, folding 32 bytes into 16.
    ///
    /// - Precondition: `bytes.count == 32`.
    public static func convert32Bto16B(_ bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count == 32, "convert32Bto16B needs 32 bytes, got \(bytes.count)")
        return (0..<16).map { bytes[$0] ^ bytes[$0 + 16] }
    }

    /// The index KDF: `AES-128-ECB(key, 0x00 * 8 || BE64(index))`, one block.
    ///
    /// - Throws: `CryptoError.invalidKey` unless `key` is 16 bytes.
    public static func kdf(_ key: [UInt8], index: UInt64) throws -> [UInt8] {
        guard key.count == keyByteCount else {
            throw CryptoError(.invalidKey, "PowerAuth KDF key must be 16 bytes, got \(key.count)")
        }
        var block = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            block[15 - i] = UInt8(truncatingIfNeeded: index >> (8 * UInt64(i)))
        }
        return try AES.encryptBlock(block, key: key)
    }

    /// `KDF_INTERNAL(key, data) = convert32Bto16B(HMAC-SHA256(key, data))`.
    public static func kdfInternal(_ key: [UInt8], data: [UInt8]) -> [UInt8] {
        convert32Bto16B(HMACSHA256.authenticate(data, key: key))
    }

    /// `KEY_MASTER_SECRET = convert32Bto16B(ECDH(privateKey, publicKey))`; the device computes it with its private
    /// key and the server's public key, the server with the opposite pair, and both get the same 16 bytes.
    ///
    /// - Throws: `CryptoError.invalidKey` if the ECDH fails.
    public static func masterSecret(privateKey: P256.PrivateKey, publicKey: P256.PublicKey) throws -> [UInt8] {
        convert32Bto16B(try privateKey.sharedSecret(with: publicKey))
    }
}
