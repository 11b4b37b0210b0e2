import AssentServerCore
import Foundation

/// Walks the command tree along the arguments, prints help, runs the chosen leaf and turns every outcome into an
/// exit status: 0 success, 1 failure, 2 usage mistake.
struct CommandRunner: Sendable {
    /// The tree's root (`assent`).
    let root: Command
    /// Printed by `--version`.
    let version: String

    /// Runs the command line (without the program name) and returns the exit status.
    func run(arguments: [String], environment: [String: String]) async -> Int32 {
        // Known before parsing, so a command line too wrong to parse still answers `--json` with JSON.
        let wantsJSON = arguments.contains("--json")
        var command = root
        var path = [root.name]
        var rest = arguments[...]
        while case .group = command.kind {
            guard let word = rest.popFirst() else {
                Output.usage(HelpText.render(command, path: path, version: path.count == 1 ? version : nil))
                if wantsJSON { Output.jsonError(CLIError.usage("'\(path.joined(separator: " "))' needs a command")) }
                return CLIError.Code.usage.exitStatus
            }
            switch word {
            case "help", "--help", "-h":
                return help(path: path, topics: Array(rest))
            case "--version" where path.count == 1:
                Output.standard("\(root.name) \(version)")
                return 0
            default:
                guard let child = command.child(word) else {
                    let what = word.hasPrefix("-") ? "unknown option \(word)" : "unknown command '\(word)'"
                    let hint = word.hasPrefix("-") ? "" : Suggestion.hint(for: word, among: command.childNames, quoted: true)
                    return usageError(
                        CLIError.usage("\(what) for '\(path.joined(separator: " "))'\(hint)"), path, json: wantsJSON)
                }
                command = child
                path.append(word)
            }
        }
        guard case .leaf(let options, let run) = command.kind else { return 0 }
        let words = Array(rest)
        if words.contains(where: { $0 == "--help" || $0 == "-h" }) {
            Output.standard(HelpText.render(command, path: path))
            return 0
        }
        let parsed: ParsedOptions
        do {
            parsed = try ParsedOptions(parsing: words, options: options, environment: environment)
        } catch {
            return usageError(Self.cliError(error), path, json: wantsJSON)
        }
        let output = Output(json: parsed.flag("--json"))
        do {
            try await run(Invocation(options: parsed, output: output))
            return 0
        } catch {
            let failure = Self.cliError(error)
            Output.error(failure.message, hint: failure.code == .usage ? usageHint(path) : nil)
            if output.json { Output.jsonError(failure) }
            return failure.code.exitStatus
        }
    }

    /// `assent help [GROUP ...]`.
    private func help(path: [String], topics: [String]) -> Int32 {
        var command = root
        var fullPath = [root.name]
        for word in path.dropFirst() + topics {
            guard let child = command.child(word) else {
                let suggestion = Suggestion.hint(for: word, among: command.childNames, quoted: true)
                Output.error("no help for '\((fullPath + [word]).joined(separator: " "))': unknown command\(suggestion)",
                             hint: usageHint(fullPath))
                return CLIError.Code.usage.exitStatus
            }
            command = child
            fullPath.append(word)
        }
        Output.standard(HelpText.render(command, path: fullPath, version: fullPath.count == 1 ? version : nil))
        return 0
    }

    /// Reports a mistake found before the command ran: on stderr for a person, and with `--json` also as the error
    /// envelope on stdout, as every other failure is.
    private func usageError(_ error: CLIError, _ path: [String], json: Bool) -> Int32 {
        Output.error(error.message, hint: usageHint(path))
        if json { Output.jsonError(error) }
        return error.code.exitStatus
    }

    private func usageHint(_ path: [String]) -> String {
        "see '\(path.joined(separator: " ")) --help'"
    }

    /// Any error as a ``CLIError``: the server's own errors keep their codes and texts.
    static func cliError(_ error: any Error) -> CLIError {
        switch error {
        case let error as CLIError:
            return error
        case let error as AssentError where error.code == .invalidRequest:
            // Only the command line's own values reach the server's types here, so this is a usage mistake.
            return CLIError(.usage, error.reason, errorCode: error.code.wire)
        case let error as AssentError:
            return .failure(error.reason, errorCode: error.code.wire)
        case let error as StoreError where error.code == .busy:
            return .failure("the database stayed locked too long; try again (\(error.reason))", errorCode: "database_busy")
        case let error as StoreError:
            return .failure("database: \(error.reason)", errorCode: "database_error")  // the code is in --json's errorCode
        default:
            return .failure(ErrorText.describe(error))
        }
    }
}
