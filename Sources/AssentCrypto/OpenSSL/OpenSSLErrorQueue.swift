#if canImport(COpenSSL)
internal import COpenSSL

/// The one place that reads OpenSSL's thread-local error queue, for every module that calls OpenSSL
/// (``CryptoError`` here, the attestation verifiers' X.509 checks): each wraps what it reads in its own error type.
package enum OpenSSLErrorQueue {
    /// OpenSSL's first reported reason (or `no OpenSSL error reported`), after draining the queue, so a stale entry
    /// never leaks into a later call on this thread.
    package static func drain() -> String {
        let first = ERR_get_error()
        var detail = "no OpenSSL error reported"
        if first != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(first, $0.baseAddress, $0.count) }
            detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        clear()
        return detail
    }

    /// Discards whatever OpenSSL queued on this thread, for paths that turn a failure into `false`.
    package static func clear() {
        ERR_clear_error()
    }
}

#endif
