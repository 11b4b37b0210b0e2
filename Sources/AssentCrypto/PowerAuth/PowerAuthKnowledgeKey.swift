/// Protection of `KEY_SIGNATURE_KNOWLEDGE` on the device: `AES-128-CBC-NoPad(PBKDF2-HMAC-SHA1(password, salt,
/// 10000, 16), IV = 0, key)`. With no padding and no MAC, a wrong password decrypts to a wrong key without any local
/// error, so only the server (with its failed-attempt counter) can tell.
public enum PowerAuthKnowledgeKey: Sendable {
    /// The key that wraps the knowledge key for `password`.
    ///
    /// - Throws: `CryptoError.invalidInput` for a bad iteration count.
    public static func passwordKey(password: [UInt8], salt: [UInt8], iterations: Int = PowerAuth.passwordIterations) throws -> [UInt8] {
        try PBKDF2.deriveSHA1(password: password, salt: salt, iterations: iterations, outputByteCount: PowerAuth.keyByteCount)
    }

    /// Encrypts the 16-byte knowledge key under `password`.
    ///
    /// - Throws: `CryptoError.invalidKey` unless `knowledgeKey` is 16 bytes.
    public static func protect(_ knowledgeKey: [UInt8], password: [UInt8], salt: [UInt8],
                               iterations: Int = PowerAuth.passwordIterations) throws -> [UInt8] {
        guard knowledgeKey.count == PowerAuth.keyByteCount else {
            throw CryptoError(.invalidKey, "knowledge key must be 16 bytes, got \(knowledgeKey.count)")
        }
        let key = try passwordKey(password: password, salt: salt, iterations: iterations)
        return try AES.CBC.encrypt(knowledgeKey, key: key, iv: [UInt8](repeating: 0, count: 16), padding: false)
    }

    /// Decrypts the protected knowledge key with `password`. A wrong password gives a wrong key, not an error.
    ///
    /// - Throws: `CryptoError.invalidInput` unless `protected` is 16 bytes.
    public static func unprotect(_ protected: [UInt8], password: [UInt8], salt: [UInt8],
                                 iterations: Int = PowerAuth.passwordIterations) throws -> [UInt8] {
        guard protected.count == PowerAuth.keyByteCount else {
            throw CryptoError(.invalidInput, "protected knowledge key must be 16 bytes, got \(protected.count)")
        }
        let key = try passwordKey(password: password, salt: salt, iterations: iterations)
        return try AES.CBC.decrypt(protected, key: key, iv: [UInt8](repeating: 0, count: 16), padding: false)
    }
}
