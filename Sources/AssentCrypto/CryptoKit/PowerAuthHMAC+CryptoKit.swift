#if canImport(CryptoKit)
/// HMAC-SHA256 and SHA-256 for the PowerAuth look-ahead on Apple platforms: the public primitives (CryptoKit
/// underneath, see `CryptoKit/Primitives+CryptoKitDigests.swift`). The OpenSSL build keeps one reused digest context instead
/// (`OpenSSL/PowerAuthHMAC.swift`), a server hot path that does not exist on a phone.
package struct PowerAuthHMAC: ~Copyable {
    package init() {}

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    package func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticate(message, key: key)
    }

    /// SHA-256 of `bytes` (the hash counter's step).
    package func hash(_ bytes: [UInt8]) -> [UInt8] {
        SHA256.hash(bytes)
    }
}

#endif
