/// HKDF with SHA-256 (RFC 5869), extract-then-expand.
public enum HKDFSHA256: Sendable {
    /// The largest output RFC 5869 allows: 255 blocks of 32 bytes.
    public static let maximumOutputByteCount = 255 * 32

    /// Derives `outputByteCount` bytes from `inputKeyMaterial`, `salt` (may be empty) and `info`.
    ///
    /// - Throws: `CryptoError.invalidInput` unless `1 <= outputByteCount <= 8160`.
    public static func deriveKey(
        inputKeyMaterial: [UInt8],
        salt: [UInt8],
        info: [UInt8],
        outputByteCount: Int
    ) throws -> [UInt8] {
        guard outputByteCount >= 1, outputByteCount <= maximumOutputByteCount else {
            throw CryptoError(.invalidInput, "HKDF-SHA256 output must be 1...\(maximumOutputByteCount) bytes, got \(outputByteCount)")
        }
        return try Primitives.hkdfSHA256(inputKeyMaterial: inputKeyMaterial, salt: salt, info: info,
                                         outputByteCount: outputByteCount)
    }
}
