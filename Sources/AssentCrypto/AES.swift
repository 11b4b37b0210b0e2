internal import COpenSSL

/// AES (FIPS 197) with 128-, 192- or 256-bit keys, in GCM and CBC modes and as a raw block cipher.
public enum AES: Sendable {
    /// The AES block size in bytes.
    public static let blockByteCount = 16

    /// Encrypts exactly one 16-byte block with AES-ECB and no padding (a raw block-cipher call, as
    /// some key-derivation schemes use it). Never use this to encrypt messages.
    ///
    /// - Throws: `CryptoError.invalidKey` unless the key is 16, 24 or 32 bytes;
    ///   `CryptoError.invalidInput` unless `block` is 16 bytes.
    public static func encryptBlock(_ block: [UInt8], key: [UInt8]) throws -> [UInt8] {
        guard block.count == blockByteCount else {
            throw CryptoError(.invalidInput, "AES block must be \(blockByteCount) bytes, got \(block.count)")
        }
        let cipher = try cipher(for: key, aes128: FetchedAlgorithm.aes128ECB, aes192: FetchedAlgorithm.aes192ECB, aes256: FetchedAlgorithm.aes256ECB)
        let context = try CipherContext()
        let ok = key.withUnsafeBufferPointer { key in
            EVP_EncryptInit_ex2(context.pointer, cipher.pointer, key.baseAddress, nil, nil)
        }
        guard ok == 1 else { throw CryptoError.openSSL("EVP_EncryptInit_ex2(AES-ECB)") }
        guard EVP_CIPHER_CTX_set_padding(context.pointer, 0) == 1 else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_set_padding")
        }
        return try context.update(block, reserving: blockByteCount, finalize: true, operation: "AES-ECB encrypt")
    }

    /// Picks the cipher matching the key size.
    static func cipher(
        for key: [UInt8],
        aes128: FetchedAlgorithm,
        aes192: FetchedAlgorithm,
        aes256: FetchedAlgorithm
    ) throws(CryptoError) -> FetchedAlgorithm {
        switch key.count {
        case 16: return aes128
        case 24: return aes192
        case 32: return aes256
        default: throw CryptoError(.invalidKey, "AES key must be 16, 24 or 32 bytes, got \(key.count)")
        }
    }
}
