/// PBKDF2 (RFC 8018) with HMAC-SHA1 or HMAC-SHA256 as the pseudorandom function.
public enum PBKDF2: Sendable {
    /// The pseudorandom function, for the backends.
    enum PRF {
        case hmacSHA1
        case hmacSHA256
    }

    /// PBKDF2-HMAC-SHA1. Use only where a protocol requires it (e.g. legacy PowerAuth key derivation).
    ///
    /// - Throws: `CryptoError.invalidInput` unless `iterations >= 1` and `outputByteCount >= 1`.
    public static func deriveSHA1(password: [UInt8], salt: [UInt8], iterations: Int, outputByteCount: Int) throws -> [UInt8] {
        try derive(.hmacSHA1, name: "PBKDF2-HMAC-SHA1", password: password, salt: salt,
                   iterations: iterations, outputByteCount: outputByteCount)
    }

    /// PBKDF2-HMAC-SHA256.
    ///
    /// - Throws: `CryptoError.invalidInput` unless `iterations >= 1` and `outputByteCount >= 1`.
    public static func deriveSHA256(password: [UInt8], salt: [UInt8], iterations: Int, outputByteCount: Int) throws -> [UInt8] {
        try derive(.hmacSHA256, name: "PBKDF2-HMAC-SHA256", password: password, salt: salt,
                   iterations: iterations, outputByteCount: outputByteCount)
    }

    private static func derive(
        _ prf: PRF,
        name: String,
        password: [UInt8],
        salt: [UInt8],
        iterations: Int,
        outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        // Both backends take C `int`/`uint` sizes and counts.
        let limit = Int(Int32.max)
        guard (1...limit).contains(iterations) else {
            throw CryptoError(.invalidInput, "\(name) iterations must be 1...\(limit), got \(iterations)")
        }
        guard (1...limit).contains(outputByteCount) else {
            throw CryptoError(.invalidInput, "\(name) output must be 1...\(limit) bytes, got \(outputByteCount)")
        }
        guard password.count <= limit, salt.count <= limit else {
            throw CryptoError(.invalidInput, "\(name) password or salt too long")
        }
        return try Primitives.pbkdf2(prf, name: name, password: password, salt: salt, iterations: iterations,
                                     outputByteCount: outputByteCount)
    }
}
