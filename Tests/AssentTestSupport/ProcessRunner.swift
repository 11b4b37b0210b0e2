import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one run of a program produced.
package struct ProcessResult: Sendable {
    /// The exit status.
    package var status: Int32
    /// Everything written to standard output, byte for byte.
    package var output: [UInt8]
    /// Everything written to standard error.
    package var stderr: String

    /// Standard output as UTF-8 text.
    package var stdout: String { String(decoding: output, as: UTF8.self) }

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

/// Runs programs to completion for tests, their input and output through files (no pipe a child could keep open),
/// each run bounded by a deadline. Every test that runs a child process to completion goes through it.
///
/// It spawns with `posix_spawn` and waits with `waitpid` on the child's own pid rather than through Foundation's
/// `Process`: with many processes started at once, `Process.waitUntilExit()` can miss a child's exit on Linux and spin
/// for ever beside a zombie, which hung whole test runs; and a pipe's end inherited by an unrelated process (the
/// AddressSanitizer runtime's symbolizer, spawned meanwhile) kept `readDataToEndOfFile()` waiting after the child had
/// exited. A child that outlives its deadline is killed and the run throws. The blocking calls are meant for a thread
/// of their own: async tests call ``run(_:_:environment:stdin:timeout:)-async`` (or wrap them in ``offPool(_:)``), so
/// a wait never holds one of the cooperative pool's two threads.
package enum ProcessRunner {
    /// Runs `executable` with `arguments`; `environment` replaces the inherited one when given (the sanitizer settings
    /// are kept, ``SanitizerOptions``); `stdin` is what the child reads. Throws when the program cannot start or is
    /// still running after `timeout` seconds (it is then killed).
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: [UInt8] = [],
        timeout: Double = 120
    ) throws -> ProcessResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("stdin").path
        let out = directory.appendingPathComponent("stdout").path, err = directory.appendingPathComponent("stderr").path
        try Data(stdin).write(to: URL(fileURLWithPath: input))
        let variables = environment.map { SanitizerOptions.environment.merging($0) { $1 } }
            ?? ProcessInfo.processInfo.environment
        let status = try spawnAndWait(
            executable, [executable] + arguments, environment: variables.map { "\($0.key)=\($0.value)" },
            stdin: input, stdout: out, stderr: err, timeout: timeout)
        return ProcessResult(
            status: status,
            output: Array(try Data(contentsOf: URL(fileURLWithPath: out))),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: err)), as: UTF8.self))
    }

    /// ``run(_:_:environment:stdin:timeout:)`` on a thread of its own, off the cooperative pool.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: [UInt8] = [],
        timeout: Double = 120
    ) async throws -> ProcessResult {
        try await offPool { try run(executable, arguments, environment: environment, stdin: stdin, timeout: timeout) }
    }

    /// Starts `path` with `argv` and `environment` (`NAME=value`), stdin, stdout and stderr from and into the named
    /// files, and blocks until it exits: its exit status, or 128 + the signal that ended it. Kills it and throws when
    /// it is still running after `timeout` seconds.
    private static func spawnAndWait(
        _ path: String, _ argv: [String], environment: [String], stdin: String, stdout: String, stderr: String,
        timeout: Double
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
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
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var pause = 1
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited == -1 {
                guard errno == EINTR else { throw TestFailure("waitpid(\(pid)) failed: \(String(cString: strerror(errno)))") }
                continue
            }
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                throw TestFailure("\(path) \(argv.dropFirst().joined(separator: " ")) did not finish within \(timeout) s")
            }
            usleep(useconds_t(pause * 1000))
            pause = min(pause * 2, 20)
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
