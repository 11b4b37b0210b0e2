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
        try checkKey(key)
        return try Primitives.aesECBEncrypt(block, key: key)
    }

    /// Refuses a key that is not 16, 24 or 32 bytes, before any backend sees it.
    static func checkKey(_ key: [UInt8]) throws(CryptoError) {
        guard [16, 24, 32].contains(key.count) else {
            throw CryptoError(.invalidKey, "AES key must be 16, 24 or 32 bytes, got \(key.count)")
        }
    }
}
