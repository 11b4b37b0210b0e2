/// Why a command stopped: a usage mistake (exit status 2) or a failure while doing the work (exit status 1).
/// Equality looks at the code only.
struct CLIError: Error, Hashable, CustomStringConvertible, Sendable {
    /// The two ways a command can stop early, with their exit statuses.
    struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: Hashable, Sendable { case usage, failure }
        fileprivate let value: Value
        /// The command line was wrong; nothing was done (exit status 2).
        static let usage = Code(value: .usage)
        /// The command was understood but failed (exit status 1).
        static let failure = Code(value: .failure)
        /// The process exit status for this code.
        var exitStatus: Int32 { value == .usage ? 2 : 1 }
        var description: String { value == .usage ? "usage" : "failure" }
    }

    /// Usage mistake or failure.
    let code: Code
    /// One line for a person, printed after `error: `.
    let message: String
    /// A machine-readable code for `--json` error output, e.g. `not_found` or the server's `errorCode`.
    let errorCode: String
    /// A JSON document to print on stdout with `--json` instead of a made-up error envelope (the server's error body).
    let jsonBody: String?
    /// Where it was raised.
    let file: String
    /// Where it was raised.
    let line: Int

    /// Creates an error.
    init(
        _ code: Code, _ message: String, errorCode: String? = nil, jsonBody: String? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.errorCode = errorCode ?? (code == .usage ? "usage" : "failed")
        self.jsonBody = jsonBody
        self.file = file
        self.line = line
    }

    /// A usage mistake.
    static func usage(_ message: String, file: String = #fileID, line: Int = #line) -> CLIError {
        CLIError(.usage, message, file: file, line: line)
    }

    /// A failure.
    static func failure(_ message: String, errorCode: String? = nil, file: String = #fileID, line: Int = #line) -> CLIError {
        CLIError(.failure, message, errorCode: errorCode, file: file, line: line)
    }

    static func == (lhs: CLIError, rhs: CLIError) -> Bool { lhs.code == rhs.code }
    func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: message`.
    var description: String { "\(code): \(message)" }
}
