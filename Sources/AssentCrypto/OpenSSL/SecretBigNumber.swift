#if canImport(COpenSSL)
internal import COpenSSL

/// Owns one OpenSSL `BIGNUM` that may hold a secret, and clears and frees it on deinit.
final class SecretBigNumber {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        BN_clear_free(pointer)
    }
}

#endif
