import Glibc

/// Why a benchmark request, a connection or the whole run failed.
///
/// Equality compares the ``code`` only. ``label`` groups failures for the error
/// summary (it never carries a body or a header); ``reason`` is the detail shown
/// once per label. Neither ever contains the secret key.
struct BenchError: Error, Equatable, CustomStringConvertible {
    /// A stable kind of failure.
    struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String {
            case usage, unreachable, setupFailed, io, timedOut, closedByServer
            case protocolViolation, unexpectedStatus, unexpectedBody
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Bad command line or configuration.
        static let usage = Code(.usage)
        /// The server could not be reached at all.
        static let unreachable = Code(.unreachable)
        /// A scenario's per-connection setup failed before the run.
        static let setupFailed = Code(.setupFailed)
        /// A socket call failed (reset, broken pipe, ...).
        static let io = Code(.io)
        /// The server did not answer within the timeout.
        static let timedOut = Code(.timedOut)
        /// The server closed the connection before or during a response.
        static let closedByServer = Code(.closedByServer)
        /// The response could not be framed (chunked, malformed, oversized headers).
        static let protocolViolation = Code(.protocolViolation)
        /// The status code was not 2xx.
        static let unexpectedStatus = Code(.unexpectedStatus)
        /// A 2xx response whose body lacked what the scenario needs.
        static let unexpectedBody = Code(.unexpectedBody)

        var description: String { base.rawValue }
    }

    let code: Code
    /// A short grouping key for the error summary, e.g. `HTTP 500` or `I/O: Connection reset by peer`.
    let label: String
    /// Human detail for this occurrence.
    let reason: String
    let file: String
    let line: Int

    init(_ code: Code, label: String, reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.label = label
        self.reason = reason
        self.file = file
        self.line = line
    }

    static func == (lhs: BenchError, rhs: BenchError) -> Bool { lhs.code == rhs.code }

    var description: String { reason }

    static func usage(_ reason: String, file: String = #fileID, line: Int = #line) -> BenchError {
        BenchError(.usage, label: "usage", reason: reason, file: file, line: line)
    }

    /// A failed socket call, labelled with the C library's message for `errno`.
    static func io(_ call: String, errno number: Int32, file: String = #fileID, line: Int = #line) -> BenchError {
        if number == EAGAIN || number == EWOULDBLOCK {
            return BenchError(.timedOut, label: "I/O: timed out", reason: "\(call) timed out (see --timeout)", file: file, line: line)
        }
        let message = String(cString: strerror(number))
        return BenchError(.io, label: "I/O: \(message)", reason: "\(call) failed: \(message)", file: file, line: line)
    }
}
