#if canImport(COpenSSL)
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

    /// The 32-byte HMAC-SHA256 of `message` under `key`: `H((K ^ opad) || H((K ^ ipad) || message))`, with the pads
    /// and the inner digest on the stack (one allocation: the result).
    package func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        let key = key.count > Self.blockByteCount ? hash(key) : key
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.blockByteCount + 32) { buffer in
            let pad = UnsafeMutableBufferPointer(rebasing: buffer[0..<Self.blockByteCount])
            let inner = UnsafeMutableBufferPointer(rebasing: buffer[Self.blockByteCount...])
            fill(pad, key: key, with: 0x36)
            start()
            update(UnsafeRawBufferPointer(pad))
            message.withUnsafeBytes { update($0) }
            finish(into: inner.baseAddress!)
            fill(pad, key: key, with: 0x5C)
            start()
            update(UnsafeRawBufferPointer(pad))
            update(UnsafeRawBufferPointer(inner))
            return [UInt8](unsafeUninitializedCapacity: 32) { out, initialized in
                finish(into: out.baseAddress!)
                initialized = 32
            }
        }
    }

    private func fill(_ pad: UnsafeMutableBufferPointer<UInt8>, key: [UInt8], with byte: UInt8) {
        for index in 0..<Self.blockByteCount {
            pad[index] = (index < key.count ? key[index] : 0) ^ byte
        }
    }

    /// SHA-256 of `bytes` on the same reused context (the hash counter's step).
    package func hash(_ bytes: [UInt8]) -> [UInt8] {
        start()
        bytes.withUnsafeBytes { update($0) }
        return [UInt8](unsafeUninitializedCapacity: 32) { out, initialized in
            finish(into: out.baseAddress!)
            initialized = 32
        }
    }

    // EVP_Digest* fail only on allocation failure or a broken provider; like HMACSHA256, that traps.

    private func start() {
        guard EVP_DigestInit_ex2(context, FetchedAlgorithm.sha256.pointer, nil) == 1 else {
            fatalError("\(CryptoError.openSSL("EVP_DigestInit_ex2(SHA256)"))")
        }
    }

    private func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
            fatalError("\(CryptoError.openSSL("EVP_DigestUpdate"))")
        }
    }

    private func finish(into out: UnsafeMutablePointer<UInt8>) {
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, out, &length) == 1, length == 32 else {
            fatalError("\(CryptoError.openSSL("EVP_DigestFinal_ex"))")
        }
    }
}

#endif
