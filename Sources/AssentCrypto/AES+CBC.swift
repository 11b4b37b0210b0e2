extension AES {
    /// AES-CBC (NIST SP 800-38A), optionally with PKCS#7 padding. Unauthenticated: use it only where a
    /// protocol requires it, with a separate MAC checked before decrypting.
    public enum CBC: Sendable {
        /// Encrypts `plaintext` under `key` with a 16-byte `iv`.
        ///
        /// - Parameter padding: PKCS#7 padding; when false, `plaintext` must be a multiple of 16 bytes.
        /// - Throws: `CryptoError.invalidKey` unless the key is 16, 24 or 32 bytes; `CryptoError.invalidInput`
        ///   for an IV that is not 16 bytes or unpadded input that is not whole blocks.
        public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], padding: Bool = true) throws -> [UInt8] {
            if !padding, plaintext.count % AES.blockByteCount != 0 {
                throw CryptoError(.invalidInput, "AES-CBC without padding needs whole 16-byte blocks, got \(plaintext.count) bytes")
            }
            try check(key: key, iv: iv, input: plaintext)
            return try Primitives.aesCBC(plaintext, key: key, iv: iv, padding: padding, encrypt: true)
        }

        /// Decrypts `ciphertext` under `key` with a 16-byte `iv`.
        ///
        /// - Parameter padding: remove and check PKCS#7 padding.
        /// - Throws: `CryptoError.authenticationFailure` for bad padding (including an empty ciphertext
        ///   when padding is expected); `CryptoError.invalidInput` for a ciphertext that is not whole blocks
        ///   or an IV that is not 16 bytes; `CryptoError.invalidKey` for a bad key size.
        public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8], padding: Bool = true) throws -> [UInt8] {
            guard ciphertext.count % AES.blockByteCount == 0 else {
                throw CryptoError(.invalidInput, "AES-CBC ciphertext must be whole 16-byte blocks, got \(ciphertext.count) bytes")
            }
            try check(key: key, iv: iv, input: ciphertext)
            if padding, ciphertext.isEmpty {
                throw CryptoError(.authenticationFailure, "AES-CBC decrypt: no padding block in an empty ciphertext")
            }
            return try Primitives.aesCBC(ciphertext, key: key, iv: iv, padding: padding, encrypt: false)
        }

        /// The checks every backend relies on: key size, IV size, and an input length that fits a C `int`.
        private static func check(key: [UInt8], iv: [UInt8], input: [UInt8]) throws(CryptoError) {
            try AES.checkKey(key)
            guard iv.count == AES.blockByteCount else {
                throw CryptoError(.invalidInput, "AES-CBC IV must be \(AES.blockByteCount) bytes, got \(iv.count)")
            }
            guard input.count <= Int(Int32.max) - AES.blockByteCount else {
                throw CryptoError(.invalidInput, "AES-CBC input too long")
            }
        }
    }
}
