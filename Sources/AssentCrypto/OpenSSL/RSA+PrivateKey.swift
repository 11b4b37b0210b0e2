#if canImport(COpenSSL)
internal import COpenSSL

extension RSA {
    /// An RSA private key (at least 2048 bits) that signs with RSASSA-PKCS1-v1_5 and SHA-256.
    public final class PrivateKey: Sendable {
        let key: EVPKey

        /// Imports PKCS#8 `PrivateKeyInfo` DER.
        ///
        /// - Throws: `CryptoError.invalidKey` when it is not an RSA key of at least 2048 bits.
        public init(pkcs8DER der: [UInt8]) throws {
            let key = try PKCS8.key(der)
            try RSA.check(key)
            self.key = key
        }

        /// Imports a PEM `-----BEGIN PRIVATE KEY-----` block (the `private_key` of a Google service-account file).
        ///
        /// - Throws: `CryptoError.invalidKey`.
        public convenience init(pkcs8PEM text: String) throws {
            guard let der = PEM.der(from: text, label: "PRIVATE KEY") else {
                throw CryptoError(.invalidKey, "no PEM PRIVATE KEY block")
            }
            try self.init(pkcs8DER: der)
        }

        /// The matching public key.
        public var publicKey: RSA.PublicKey {
            get throws {
                var buffer: UnsafeMutablePointer<UInt8>?
                let length = i2d_PUBKEY(key.pointer, &buffer)
                guard length > 0, let buffer else { throw CryptoError.openSSL("i2d_PUBKEY") }
                defer { CRYPTO_free(buffer, #fileID, #line) }
                return try RSA.PublicKey(spkiDER: Array(UnsafeBufferPointer(start: buffer, count: Int(length))))
            }
        }

        /// Signs `message`: RSASSA-PKCS1-v1_5 over SHA-256(`message`). The signature is as long as the modulus and,
        /// PKCS#1 v1.5 being deterministic, the same every time.
        ///
        /// - Throws: `CryptoError.internalFailure` if OpenSSL fails.
        public func signature(for message: [UInt8]) throws -> [UInt8] {
            let digest = SHA256.hash(message)
            let context = try RSA.context(key, signing: true)
            return try context.sign(digest: digest)
        }
    }
}

#endif
