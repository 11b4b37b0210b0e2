#if canImport(COpenSSL)
internal import COpenSSL

extension RSA {
    /// An RSA public key (at least 2048 bits) that verifies RSASSA-PKCS1-v1_5 signatures over SHA-256.
    public final class PublicKey: Sendable {
        let key: EVPKey

        /// Imports DER `SubjectPublicKeyInfo`.
        ///
        /// - Throws: `CryptoError.invalidKey`.
        public init(spkiDER der: [UInt8]) throws {
            guard !der.isEmpty, der.count <= 16 * 1024 else {
                throw CryptoError(.invalidKey, "RSA public key must be 1 to 16384 bytes, got \(der.count)")
            }
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                guard let key = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
                guard cursor == buffer.baseAddress! + buffer.count else {
                    EVP_PKEY_free(key)
                    return nil
                }
                return key
            }
            guard let parsed else { throw CryptoError.openSSL("RSA public key import", code: .invalidKey) }
            let key = EVPKey(taking: parsed)
            try RSA.check(key)
            self.key = key
        }

        /// Whether `signature` is RSASSA-PKCS1-v1_5 with SHA-256 over `message` under this key.
        public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
            guard signature.count == Int(EVP_PKEY_get_size(key.pointer)) else { return false }
            let digest = SHA256.hash(message)
            guard let context = try? RSA.context(key, signing: false) else {
                CryptoError.clearOpenSSLErrors()
                return false
            }
            let result = signature.withUnsafeBufferPointer { signature in
                EVP_PKEY_verify(context.pointer, signature.baseAddress, signature.count, digest, digest.count)
            }
            if result != 1 {
                CryptoError.clearOpenSSLErrors()
                return false
            }
            return true
        }
    }
}

#endif
