/// Comparisons whose running time does not depend on the contents of secret data.
public enum ConstantTime: Sendable {
    /// Whether `a` and `b` are byte-for-byte equal, in time that depends only on their length
    /// (`CRYPTO_memcmp` on Linux, `timingsafe_bcmp` on Apple platforms). Arrays of different lengths are unequal
    /// (the length is not secret).
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return Primitives.equalBytes(a, b)
    }
}
