#if canImport(COpenSSL)
internal import COpenSSL

extension CryptoError {
    /// The one place that reads OpenSSL's thread-local error queue.
    ///
    /// Drains the queue (so a stale entry never leaks into a later call on this thread) and returns
    /// an error with `code` whose reason names the failing `operation` and OpenSSL's first reported reason.
    static func openSSL(
        _ operation: String,
        code: Code = .internalFailure,
        file: String = #fileID,
        line: Int = #line
    ) -> CryptoError {
        let first = ERR_get_error()
        var detail = "no OpenSSL error reported"
        if first != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(first, $0.baseAddress, $0.count) }
            detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        clearOpenSSLErrors()
        return CryptoError(code, "\(operation) failed: \(detail)", file: file, line: line)
    }

    /// Discards whatever OpenSSL queued on this thread, for paths that turn a failure into `false`.
    static func clearOpenSSLErrors() {
        ERR_clear_error()
    }
}

#endif
