/// HMAC with SHA-256 (RFC 2104).
public enum HMACSHA256: Sendable {
    /// The MAC size in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte HMAC-SHA256 of `message` under `key` (any key length, including empty).
    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        Primitives.hmacSHA256(message, key: key)
    }

    /// Whether `mac` is the full 32-byte HMAC-SHA256 of `message` under `key`, compared in constant time.
    ///
    /// A truncated MAC is rejected; compare a prefix of ``authenticate(_:key:)`` yourself if a protocol truncates.
    public static func isValid(_ mac: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        ConstantTime.equals(authenticate(message, key: key), mac)
    }
}
