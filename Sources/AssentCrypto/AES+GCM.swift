internal import COpenSSL

extension AES {
    /// AES-GCM authenticated encryption (NIST SP 800-38D) with a 16-byte tag.
    public enum GCM: Sendable {
        /// The tag size in bytes; shorter (truncated) tags are not produced or accepted.
        public static let tagByteCount = 16
        /// The nonce sizes OpenSSL accepts: 1 to 128 bytes. Use 12 unless a protocol says otherwise,
        /// and never repeat a nonce under one key.
        public static let nonceByteCountRange = 1...128

        /// Encrypts and authenticates `plaintext`, also authenticating `aad`.
        ///
        /// - Throws: `CryptoError.invalidKey` unless the key is 16, 24 or 32 bytes;
        ///   `CryptoError.invalidInput` unless the nonce is 1...128 bytes.
        public static func seal(
            _ plaintext: [UInt8],
            key: [UInt8],
            nonce: [UInt8],
            authenticating aad: [UInt8] = []
        ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
            let context = try start(encrypt: true, key: key, nonce: nonce, aad: aad)
            let ciphertext = try context.update(plaintext, reserving: plaintext.count + AES.blockByteCount,
                                                finalize: true, operation: "AES-GCM seal")
            var tag = [UInt8](repeating: 0, count: tagByteCount)
            let ok = tag.withUnsafeMutableBytes { tag in
                EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), tag.baseAddress)
            }
            guard ok == 1 else { throw CryptoError.openSSL("AES-GCM get tag") }
            return (ciphertext, tag)
        }

        /// Verifies `tag` over `ciphertext` and `aad`, and returns the plaintext.
        ///
        /// - Throws: `CryptoError.authenticationFailure` if the tag is not 16 bytes or does not verify
        ///   (no plaintext is released); `CryptoError.invalidKey` / `.invalidInput` as ``seal(_:key:nonce:authenticating:)``.
        public static func open(
            _ ciphertext: [UInt8],
            tag: [UInt8],
            key: [UInt8],
            nonce: [UInt8],
            authenticating aad: [UInt8] = []
        ) throws -> [UInt8] {
            guard tag.count == tagByteCount else {
                throw CryptoError(.authenticationFailure, "AES-GCM tag must be \(tagByteCount) bytes, got \(tag.count)")
            }
            let context = try start(encrypt: false, key: key, nonce: nonce, aad: aad)
            var tagCopy = tag
            let ok = tagCopy.withUnsafeMutableBytes { tag in
                EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), tag.baseAddress)
            }
            guard ok == 1 else { throw CryptoError.openSSL("AES-GCM set tag") }
            return try context.update(ciphertext, reserving: ciphertext.count + AES.blockByteCount, finalize: true,
                                      operation: "AES-GCM open", finalFailure: .authenticationFailure)
        }

        /// Creates a context keyed for GCM with the given nonce, and feeds it the AAD.
        private static func start(encrypt: Bool, key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws -> CipherContext {
            let cipher = try AES.cipher(for: key, aes128: FetchedAlgorithm.aes128GCM, aes192: FetchedAlgorithm.aes192GCM,
                                        aes256: FetchedAlgorithm.aes256GCM)
            guard nonceByteCountRange.contains(nonce.count) else {
                throw CryptoError(.invalidInput, "AES-GCM nonce must be 1...128 bytes, got \(nonce.count)")
            }
            let context = try CipherContext()
            let doEncrypt: Int32 = encrypt ? 1 : 0
            guard EVP_CipherInit_ex2(context.pointer, cipher.pointer, nil, nil, doEncrypt, nil) == 1 else {
                throw CryptoError.openSSL("EVP_CipherInit_ex2(AES-GCM)")
            }
            guard EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1 else {
                throw CryptoError.openSSL("AES-GCM set nonce length", code: .invalidInput)
            }
            let keyed = key.withUnsafeBufferPointer { key in
                nonce.withUnsafeBufferPointer { nonce in
                    EVP_CipherInit_ex2(context.pointer, nil, key.baseAddress, nonce.baseAddress, doEncrypt, nil)
                }
            }
            guard keyed == 1 else { throw CryptoError.openSSL("AES-GCM set key and nonce") }
            if !aad.isEmpty {
                guard aad.count <= Int(Int32.max) else { throw CryptoError(.invalidInput, "AES-GCM AAD too long") }
                var written: Int32 = 0
                let ok = aad.withUnsafeBufferPointer { aad in
                    EVP_CipherUpdate(context.pointer, nil, &written, aad.baseAddress, Int32(aad.count))
                }
                guard ok == 1 else { throw CryptoError.openSSL("AES-GCM AAD") }
            }
            return context
        }
    }
}
