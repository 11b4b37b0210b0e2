internal import COpenSSL

/// SHA-256 (FIPS 180-4).
public enum SHA256: Sendable {
    /// The digest size in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            var length: UInt32 = 0
            let ok = data.withUnsafeBytes { input in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length,
                           FetchedAlgorithm.sha256.pointer, nil)
            }
            // EVP_Digest with a fetched SHA-256 fails only on allocation failure.
            guard ok == 1, length == byteCount else {
                fatalError("\(CryptoError.openSSL("EVP_Digest(SHA256)"))")
            }
            initialized = byteCount
        }
    }
}
