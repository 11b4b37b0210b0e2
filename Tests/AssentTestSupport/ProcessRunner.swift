import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one run of a program produced.
package struct ProcessResult: Sendable {
    /// The exit status.
    package var status: Int32
    /// Everything written to standard output.
    package var stdout: String
    /// Everything written to standard error.
    package var stderr: String

    /// stdout parsed as JSON.
    package func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    /// stdout parsed as a JSON object.
    package func object() throws -> [String: Any] {
        guard let object = try json() as? [String: Any] else { throw TestFailure("stdout is not a JSON object: \(stdout)") }
        return object
    }
}

/// Runs programs to completion for tests, their output captured through files (no pipe a child could keep open).
///
/// It spawns with `posix_spawn` and waits with `waitpid` on the child's own pid rather than through Foundation's
/// `Process`: with many processes started at once, `Process.waitUntilExit()` can miss a child's exit on Linux and spin
/// for ever beside a zombie, which hung whole test runs.
package enum ProcessRunner {
    /// Runs `executable` with `arguments`; `environment` replaces the inherited one when given (the sanitizer settings
    /// are kept, ``SanitizerOptions``).
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> ProcessResult
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout").path, err = directory.appendingPathComponent("stderr").path
        let variables = environment.map { SanitizerOptions.environment.merging($0) { $1 } }
            ?? ProcessInfo.processInfo.environment
        let status = try spawnAndWait(
            executable, [executable] + arguments, environment: variables.map { "\($0.key)=\($0.value)" },
            stdout: out, stderr: err)
        return ProcessResult(
            status: status,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: err)), as: UTF8.self))
    }

    /// Starts `path` with `argv` and `environment` (`NAME=value`), stdin from /dev/null and stdout/stderr into the
    /// named files, and blocks until it exits: its exit status, or 128 + the signal that ended it.
    private static func spawnAndWait(
        _ path: String, _ argv: [String], environment: [String], stdout: String, stderr: String
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw TestFailure("could not start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw TestFailure("waitpid(\(pid)) failed: \(String(cString: strerror(errno)))") }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Runs `executable` and answers its stdout, or throws with its stderr when it exits non-zero.
    package static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let result = try run(executable, arguments)
        guard result.status == 0 else {
            throw TestFailure("\(executable) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }
}
