#if canImport(COpenSSL)
internal import COpenSSL

extension PKeyContext {
    /// Signs `digest` with a context already initialised for signing (ECDSA answers DER, RSA PKCS#1 v1.5 the raw
    /// signature): asks OpenSSL for the size, then signs into a buffer of it.
    ///
    /// - Throws: `CryptoError.internalFailure` if OpenSSL fails.
    func sign(digest: [UInt8]) throws -> [UInt8] {
        var length = 0
        guard EVP_PKEY_sign(pointer, nil, &length, digest, digest.count) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_sign (size)")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let ok = signature.withUnsafeMutableBufferPointer {
            EVP_PKEY_sign(pointer, $0.baseAddress, &length, digest, digest.count)
        }
        guard ok == 1, length <= signature.count else { throw CryptoError.openSSL("EVP_PKEY_sign") }
        signature.removeLast(signature.count - length)
        return signature
    }
}

#endif
