import AssentTestSupport
import Foundation

/// A command-line program from a Debian package, run with a deadline; a missing program is a failure that says
/// which package to install, never a skip.
struct ExternalTool {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// What one run produced.
    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    static let zbarimg = ExternalTool(name: "zbarimg", package: "zbar-tools")
    static let rsvgConvert = ExternalTool(name: "rsvg-convert", package: "librsvg2-bin")
    static let python3 = ExternalTool(name: "python3", package: "python3")

    let name: String
    let package: String

    /// The program's path on `PATH`.
    func executable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure("\(name) is not installed: apt-get install \(package) (`make test` installs it)")
    }

    /// Runs the program with `arguments`, feeding it `stdin`, and kills it after `timeout` seconds (through the
    /// tests' one process runner: files instead of pipes, a bounded wait).
    func run(_ arguments: [String], stdin: [UInt8] = [], timeout: Double = 30) throws -> Result {
        let result = try ProcessRunner.run(try executable().path, arguments, stdin: stdin, timeout: timeout)
        return Result(status: result.status, stdout: result.output, stderr: result.stderr)
    }
}
