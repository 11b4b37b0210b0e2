#if canImport(COpenSSL)
internal import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` and frees it on deinit.
///
/// `@unchecked Sendable`: the key is never mutated after construction, and OpenSSL supports
/// concurrent read-only use of one `EVP_PKEY` from several threads as long as each operation
/// uses its own context (which every caller here creates per call).
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// A fresh operation context for this key (`EVP_PKEY_CTX_new_from_pkey`).
    func makeContext() throws(CryptoError) -> PKeyContext {
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey")
        }
        return PKeyContext(taking: ctx)
    }
}

#endif
