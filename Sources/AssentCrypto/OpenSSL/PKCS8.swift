#if canImport(COpenSSL)
internal import COpenSSL

/// Reads PKCS#8 `PrivateKeyInfo` DER (the body of a `-----BEGIN PRIVATE KEY-----` block) into an `EVP_PKEY`.
enum PKCS8 {
    /// The key in `der`, whatever its algorithm; the caller checks the type.
    static func key(_ der: [UInt8]) throws(CryptoError) -> EVPKey {
        guard !der.isEmpty, der.count <= 16 * 1024 else {
            throw CryptoError(.invalidKey, "PKCS#8 key must be 1 to 16384 bytes, got \(der.count)")
        }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let info = d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, buffer.count) else { return nil }
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            // Trailing bytes after the structure are refused: one key, exactly.
            guard let cursor, cursor == buffer.baseAddress! + buffer.count else { return nil }
            return EVP_PKCS82PKEY(info)
        }
        guard let parsed else { throw CryptoError.openSSL("PKCS#8 private key import", code: .invalidKey) }
        return EVPKey(taking: parsed)
    }

    /// Whether `key` is of OpenSSL key type `name` (e.g. "EC", "RSA").
    static func isA(_ key: EVPKey, _ name: String) -> Bool {
        EVP_PKEY_is_a(key.pointer, name) == 1
    }
}

#endif
