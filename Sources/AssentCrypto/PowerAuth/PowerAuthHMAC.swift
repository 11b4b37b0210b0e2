internal import COpenSSL

/// HMAC-SHA256 (RFC 2104) for the PowerAuth look-ahead, written over one reused SHA-256 digest context with the
/// digest fetched once. Same result as ``HMACSHA256/authenticate(_:key:)`` (the tests check it), but without
/// `EVP_Q_mac`'s per-call look-up of the MAC and digest by name, whose shared provider locks showed in the server's
/// profile when several threads verify signatures at once.
package struct PowerAuthHMAC: ~Copyable {
    private let context: OpaquePointer
    private static let blockByteCount = 64

    package init() {
        guard let context = EVP_MD_CTX_new() else { fatalError("\(CryptoError.openSSL("EVP_MD_CTX_new"))") }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    package func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > Self.blockByteCount ? digest([key]) : key
        block += [UInt8](repeating: 0, count: Self.blockByteCount - block.count)
        let inner = digest([block.map { $0 ^ 0x36 }, message])
        return digest([block.map { $0 ^ 0x5C }, inner])
    }

    /// SHA-256 of the concatenated parts.
    private func digest(_ parts: [[UInt8]]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { out, initialized in
            var ok = EVP_DigestInit_ex2(context, FetchedAlgorithm.sha256.pointer, nil) == 1
            for part in parts where ok && !part.isEmpty {
                ok = part.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
            }
            var length: UInt32 = 0
            ok = ok && EVP_DigestFinal_ex(context, out.baseAddress, &length) == 1 && length == 32
            // Fails only on allocation failure or a broken provider, as HMACSHA256 does.
            guard ok else { fatalError("\(CryptoError.openSSL("SHA-256 for HMAC"))") }
            initialized = 32
        }
    }
}
