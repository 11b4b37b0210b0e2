internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG.
public enum SecureRandom: Sendable {
    /// Returns `count` random bytes (`RAND_bytes`).
    ///
    /// Traps if the RNG fails (there is no safe way to continue without randomness) or if `count` is negative.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: negative count")
        precondition(count <= Int(Int32.max), "SecureRandom.bytes: count too large")
        if count == 0 { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard RAND_bytes(buffer.baseAddress, Int32(count)) == 1 else {
                fatalError("\(CryptoError.openSSL("RAND_bytes"))")
            }
            initialized = count
        }
    }
}
