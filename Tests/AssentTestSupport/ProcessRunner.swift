import Foundation

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
package enum ProcessRunner {
    /// Runs `executable` with `arguments`; `environment` replaces the inherited one when given (the sanitizer settings
    /// are kept, ``SanitizerOptions``).
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> ProcessResult
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = SanitizerOptions.environment.merging(environment) { $1 } }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
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
