internal import COpenSSL

/// HMAC with SHA-256 (RFC 2104).
public enum HMACSHA256: Sendable {
    /// The MAC size in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte HMAC-SHA256 of `message` under `key` (any key length, including empty).
    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            var length = 0
            let result = key.withNonNullBytes { keyPointer, keyCount in
                message.withNonNullBytes { messagePointer, messageCount in
                    EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, keyPointer, keyCount,
                              messagePointer, messageCount, out.baseAddress, out.count, &length)
                }
            }
            // EVP_Q_mac fails only on allocation failure or a broken provider.
            guard result != nil, length == byteCount else {
                fatalError("\(CryptoError.openSSL("EVP_Q_mac(HMAC-SHA256)"))")
            }
            initialized = byteCount
        }
    }

    /// Whether `mac` is the full 32-byte HMAC-SHA256 of `message` under `key`, compared in constant time.
    ///
    /// A truncated MAC is rejected; compare a prefix of ``authenticate(_:key:)`` yourself if a protocol truncates.
    public static func isValid(_ mac: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        ConstantTime.equals(authenticate(message, key: key), mac)
    }
}
