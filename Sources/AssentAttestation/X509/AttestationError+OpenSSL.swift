internal import COpenSSL

extension AttestationError {
    /// The one place in AssentAttestation that reads OpenSSL's thread-local error queue: drains it (so a stale entry
    /// never leaks into a later call on this thread) and names the failing `operation` with OpenSSL's first reason.
    static func openSSL(_ code: Code, _ operation: String, file: String = #fileID, line: Int = #line) -> AttestationError {
        let first = ERR_get_error()
        var detail = "no OpenSSL error reported"
        if first != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(first, $0.baseAddress, $0.count) }
            detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        ERR_clear_error()
        return AttestationError(code, "\(operation) failed: \(detail)", file: file, line: line)
    }

    /// Discards whatever OpenSSL queued on this thread, for checks that turn a failure into `false`.
    static func clearOpenSSLErrors() {
        ERR_clear_error()
    }
}
