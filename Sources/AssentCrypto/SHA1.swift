internal import COpenSSL

/// SHA-1, for the one protocol that still requires it: the WebSocket handshake's `Sec-WebSocket-Accept`
/// (RFC 6455 §4.2.2). Not for signatures or anything that needs collision resistance, hence `package` only.
package enum SHA1: Sendable {
    /// The digest size in bytes.
    package static let byteCount = 20

    /// Returns the 20-byte SHA-1 digest of `data`.
    package static func hash(_ data: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            var length: UInt32 = 0
            let ok = data.withUnsafeBytes { input in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha1(), nil)
            }
            // EVP_Digest with the built-in SHA-1 fails only on allocation failure.
            guard ok == 1, length == byteCount else {
                fatalError("\(CryptoError.openSSL("EVP_Digest(SHA1)"))")
            }
            initialized = byteCount
        }
    }
}
