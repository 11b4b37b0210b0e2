#if canImport(COpenSSL)
internal import COpenSSL

/// Owns one `EVP_PKEY_CTX` (a per-operation context; never shared between threads).
final class PKeyContext {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_CTX_free(pointer)
    }
}

#endif
