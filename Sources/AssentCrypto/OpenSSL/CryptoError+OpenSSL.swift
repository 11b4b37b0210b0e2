#if canImport(COpenSSL)

extension CryptoError {
    /// An error with `code` whose reason names the failing `operation` and OpenSSL's first reported reason, read
    /// (and the queue drained) by ``OpenSSLErrorQueue``.
    static func openSSL(
        _ operation: String,
        code: Code = .internalFailure,
        file: String = #fileID,
        line: Int = #line
    ) -> CryptoError {
        CryptoError(code, "\(operation) failed: \(OpenSSLErrorQueue.drain())", file: file, line: line)
    }

    /// Discards whatever OpenSSL queued on this thread, for paths that turn a failure into `false`.
    static func clearOpenSSLErrors() {
        OpenSSLErrorQueue.clear()
    }
}

#endif
