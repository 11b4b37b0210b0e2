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

    /// Runs the program with `arguments`, feeding it `stdin`, and kills it after `timeout` seconds.
    func run(_ arguments: [String], stdin: [UInt8] = [], timeout: Double = 30) throws -> Result {
        let directory = try TemporaryDirectory()
        let inputURL = try directory.write("stdin", stdin)
        let stdoutURL = try directory.write("stdout", [])
        let stderrURL = try directory.write("stderr", [])
        let input = try FileHandle(forReadingFrom: inputURL)
        let output = try FileHandle(forWritingTo: stdoutURL)
        let error = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }

        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            exited.wait()
            throw Failure("\(name) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        return Result(
            status: process.terminationStatus,
            stdout: Array(try Data(contentsOf: stdoutURL)),
            stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self))
    }
}

/// A fresh directory under the system temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("assent-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to `name` inside the directory and returns its URL.
    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }
}
