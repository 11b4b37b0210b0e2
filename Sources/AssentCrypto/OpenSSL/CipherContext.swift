#if canImport(COpenSSL)
internal import COpenSSL

/// Owns one `EVP_CIPHER_CTX` (per-operation; never shared between threads).
final class CipherContext {
    let pointer: OpaquePointer

    init() throws(CryptoError) {
        guard let ctx = EVP_CIPHER_CTX_new() else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_new")
        }
        pointer = ctx
    }

    deinit {
        EVP_CIPHER_CTX_free(pointer)
    }
}

#endif
