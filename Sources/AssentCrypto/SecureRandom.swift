/// Cryptographically secure random bytes from the platform's generator (OpenSSL's DRBG on Linux,
/// `SecRandomCopyBytes` on Apple platforms).
public enum SecureRandom: Sendable {
    /// Returns `count` random bytes.
    ///
    /// Traps if the RNG fails (there is no safe way to continue without randomness) or if `count` is negative.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: negative count")
        precondition(count <= Int(Int32.max), "SecureRandom.bytes: count too large")
        if count == 0 { return [] }
        return Primitives.randomBytes(count)
    }
}
