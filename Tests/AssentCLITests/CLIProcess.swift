import AssentTestSupport
import Foundation

/// Runs the built `assent` executable as a subprocess, with a controlled environment, and captures its output.
enum CLIProcess {
    /// What one run produced.
    typealias Result = ProcessResult
    /// A run that could not be made sense of.
    typealias Failure = TestFailure

    /// Runs `assent arguments...` with only `PATH`, `HOME` and `environment` set (no `ASSENT_*` from the caller).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        return try ProcessRunner.run(try BuiltProduct.path("assent"), arguments, environment: base.merging(environment) { $1 })
    }
}
