extension AES {
    /// AES-GCM authenticated encryption (NIST SP 800-38D) with a 16-byte tag.
    public enum GCM: Sendable {
        /// The tag size in bytes; shorter (truncated) tags are not produced or accepted.
        public static let tagByteCount = 16

        /// The nonce sizes the platform's AES-GCM accepts: 1 to 128 bytes with OpenSSL (Linux), 12 to 128 bytes
        /// with CryptoKit (Apple platforms). Use 12 unless a protocol says otherwise, and never repeat a nonce under
        /// one key.
        public static let nonceByteCountRange = Primitives.gcmNonceByteCountRange

        /// Encrypts and authenticates `plaintext`, also authenticating `aad`.
        ///
        /// - Throws: `CryptoError.invalidKey` unless the key is 16, 24 or 32 bytes;
        ///   `CryptoError.invalidInput` unless the nonce's size is in ``nonceByteCountRange``.
        public static func seal(
            _ plaintext: [UInt8],
            key: [UInt8],
            nonce: [UInt8],
            authenticating aad: [UInt8] = []
        ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
            try check(key: key, nonce: nonce, input: plaintext, aad: aad)
            return try Primitives.aesGCMSeal(plaintext, key: key, nonce: nonce, aad: aad)
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
            try check(key: key, nonce: nonce, input: ciphertext, aad: aad)
            return try Primitives.aesGCMOpen(ciphertext, tag: tag, key: key, nonce: nonce, aad: aad)
        }

        /// The checks every backend relies on: key size, nonce size, and lengths that fit a C `int`.
        private static func check(key: [UInt8], nonce: [UInt8], input: [UInt8], aad: [UInt8]) throws(CryptoError) {
            try AES.checkKey(key)
            guard nonceByteCountRange.contains(nonce.count) else {
                throw CryptoError(.invalidInput, "AES-GCM nonce must be \(nonceByteCountRange) bytes, got \(nonce.count)")
            }
            guard input.count <= Int(Int32.max) - AES.blockByteCount else {
                throw CryptoError(.invalidInput, "AES-GCM input too long")
            }
            guard aad.count <= Int(Int32.max) else { throw CryptoError(.invalidInput, "AES-GCM AAD too long") }
        }
    }
}
