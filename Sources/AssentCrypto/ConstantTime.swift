internal import COpenSSL

/// Comparisons whose running time does not depend on the contents of secret data.
public enum ConstantTime: Sendable {
    /// Whether `a` and `b` are byte-for-byte equal, in time that depends only on their length
    /// (`CRYPTO_memcmp`). Arrays of different lengths are unequal (the length is not secret).
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
