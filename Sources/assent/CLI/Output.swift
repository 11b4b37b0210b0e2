import Foundation

/// Where a command's results go: with `--json`, exactly one JSON document on stdout; otherwise text for people.
/// Errors and warnings always go to stderr.
struct Output: Sendable {
    /// Whether `--json` was given.
    let json: Bool

    /// Prints a result: `value` as JSON with `--json`, otherwise the text `human` makes.
    func result<T: Encodable>(_ value: T, human: () -> String) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Self.write(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n", to: .standardOutput)
        } else {
            Self.write(Self.terminated(human()), to: .standardOutput)
        }
    }

    /// Prints a result that already is JSON text (a server's answer, as received) with `--json`, otherwise `human`.
    func result(json text: String, human: () throws -> String) rethrows {
        if json {
            Self.write(Self.terminated(text), to: .standardOutput)
        } else {
            Self.write(Self.terminated(try human()), to: .standardOutput)
        }
    }

    /// Prints text for people on stdout (help, version), regardless of `--json`.
    static func standard(_ text: String) {
        write(terminated(text), to: .standardOutput)
    }

    /// Usage text on stderr, for a command line that named no command.
    static func usage(_ text: String) {
        write(terminated(text), to: .standardError)
    }

    /// `warning: message` on stderr.
    static func warning(_ message: String) {
        write("warning: \(message)\n", to: .standardError)
    }

    /// `error: message` on stderr, plus an optional hint line.
    static func error(_ message: String, hint: String? = nil) {
        write("error: \(message)\n" + (hint.map { "\($0)\n" } ?? ""), to: .standardError)
    }

    /// Prints an error document on stdout for `--json` callers: the given JSON, or an envelope like the server's.
    static func jsonError(_ error: CLIError) {
        if let body = error.jsonBody {
            write(terminated(body), to: .standardOutput)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let envelope = ["error": error.errorCode, "errorCode": error.errorCode, "errorDescription": error.message]
        if let data = try? encoder.encode(envelope) {
            write(String(decoding: data, as: UTF8.self) + "\n", to: .standardOutput)
        }
    }

    private static func terminated(_ text: String) -> String {
        text.hasSuffix("\n") ? text : text + "\n"
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
