import AssentCrypto

extension AttestationError {
    /// An error with `code` whose reason names the failing `operation` and OpenSSL's first reported reason, read (and
    /// the queue drained) by AssentCrypto's ``OpenSSLErrorQueue``, the one reader of it.
    static func openSSL(_ code: Code, _ operation: String, file: String = #fileID, line: Int = #line) -> AttestationError {
        AttestationError(code, "\(operation) failed: \(OpenSSLErrorQueue.drain())", file: file, line: line)
    }

    /// Discards whatever OpenSSL queued on this thread, for checks that turn a failure into `false`.
    static func clearOpenSSLErrors() {
        OpenSSLErrorQueue.clear()
    }
}
