internal import COpenSSL

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
            let context = try start(encrypt: true, key: key, iv: iv, padding: padding)
            return try context.update(plaintext, reserving: plaintext.count + AES.blockByteCount, finalize: true,
                                      operation: "AES-CBC encrypt")
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
            let context = try start(encrypt: false, key: key, iv: iv, padding: padding)
            return try context.update(ciphertext, reserving: ciphertext.count + AES.blockByteCount, finalize: true,
                                      operation: "AES-CBC decrypt", finalFailure: .authenticationFailure)
        }

        private static func start(encrypt: Bool, key: [UInt8], iv: [UInt8], padding: Bool) throws -> CipherContext {
            let cipher = try AES.cipher(for: key, aes128: FetchedAlgorithm.aes128CBC, aes192: FetchedAlgorithm.aes192CBC,
                                        aes256: FetchedAlgorithm.aes256CBC)
            guard iv.count == AES.blockByteCount else {
                throw CryptoError(.invalidInput, "AES-CBC IV must be \(AES.blockByteCount) bytes, got \(iv.count)")
            }
            let context = try CipherContext()
            let ok = key.withUnsafeBufferPointer { key in
                iv.withUnsafeBufferPointer { iv in
                    EVP_CipherInit_ex2(context.pointer, cipher.pointer, key.baseAddress, iv.baseAddress, encrypt ? 1 : 0, nil)
                }
            }
            guard ok == 1 else { throw CryptoError.openSSL("EVP_CipherInit_ex2(AES-CBC)") }
            guard EVP_CIPHER_CTX_set_padding(context.pointer, padding ? 1 : 0) == 1 else {
                throw CryptoError.openSSL("EVP_CIPHER_CTX_set_padding")
            }
            return context
        }
    }
}
