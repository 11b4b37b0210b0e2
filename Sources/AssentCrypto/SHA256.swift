/// SHA-256 (FIPS 180-4).
public enum SHA256: Sendable {
    /// The digest size in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: [UInt8]) -> [UInt8] {
        Primitives.sha256(data)
    }
}
