import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A real `assentd` from the build directory, on a port the kernel picks, with a throwaway SQLite database and one
/// tenant made with the real `assent admin tenant create`. ``stop()`` ends it (SIGTERM, then SIGKILL).
final class ServerProcess: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let directory: String
    let database: String
    /// `http://127.0.0.1:PORT`.
    let url: String
    let tenantID: String
    let secretKey: String
    private let process: Process
    private let output: Buffer

    /// What the server prints, gathered from its pipe.
    final class Buffer: Sendable {
        private let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var contents: String { text.withLock { $0 } }
    }

    /// The SDK's base URL.
    var apiURL: String { url + "/v1" }

    /// Makes a tenant (with `settings` applied through `assent admin tenant settings`) and starts the server.
    init(settings: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = (directory as NSString).appendingPathComponent("assent.sqlite")
        let tenant = try Self.json(try Self.run(Self.binary("assent"), [
            "admin", "tenant", "create", "--database", database, "--name", "E2E", "--json",
        ]))
        guard let id = tenant["tenantId"] as? String, let secret = tenant["secretKey"] as? String else {
            throw Failure("tenant create printed no tenantId/secretKey: \(tenant)")
        }
        tenantID = id
        secretKey = secret
        if !settings.isEmpty {
            _ = try Self.run(Self.binary("assent"),
                             ["admin", "tenant", "settings", "--database", database, "--tenant", id, "--json"] + settings)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary("assentd"))
        process.arguments = ["--listen", "127.0.0.1:0", "--database", database, "--no-dev-tenant"]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let output = Buffer()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            output.append(data)
        }
        try process.run()
        self.process = process
        self.output = output

        let deadline = Date().addingTimeInterval(30)
        var found: String?
        while found == nil, Date() < deadline, process.isRunning {
            let text = output.contents
            found = text.range(of: #"listening on http://[0-9.:]+"#, options: .regularExpression).map {
                String(text[$0].dropFirst("listening on ".count))
            }
            if found == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let found else {
            if process.isRunning { process.terminate() }
            throw Failure("assentd did not start:\n" + output.contents)
        }
        url = found
    }

    /// Everything the server printed so far.
    var log: String { output.contents }

    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: HTTP for the backend and the initiating page

    /// One JSON call; answers the status and the body as an object (empty when not one).
    func call(_ method: String, _ path: String, authorization: String, body: [String: Any]? = nil) async throws
        -> (status: Int, json: [String: Any])
    {
        var request = URLRequest(url: URL(string: url + path)!, timeoutInterval: 30)
        request.httpMethod = method
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, json)
    }

    /// The tenant's secret key as HTTP Basic.
    var secretAuthorization: String { "Basic " + Data("\(secretKey):".utf8).base64EncodedString() }

    /// `POST /v1/users/{user}/actions/{action}` with the secret key; answers the track response.
    func track(user: String, action: String, _ attributes: [String: Any] = [:]) async throws -> [String: Any] {
        let (status, json) = try await call("POST", "/v1/users/\(user)/actions/\(action)", authorization: secretAuthorization,
                                            body: attributes)
        guard status == 200 else { throw Failure("track answered \(status): \(json)") }
        return json
    }

    // MARK: Binaries

    /// An executable built next to the test bundle (`.build/<triple>/debug/NAME`).
    static func binary(_ name: String) throws -> String {
        var candidates: [String] = []
        for start in [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])] {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                directory = directory.deletingLastPathComponent()
                candidates.append(directory.appendingPathComponent(name).path)
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)").path)
        guard let found = candidates.first(where: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: path)
        }) else { throw Failure("no \(name) binary next to the tests; build it first (swift build --product \(name))") }
        return found
    }

    /// Runs a program to completion; answers its stdout, or throws with its stderr when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out"), err = directory.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let stdout = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                + String(decoding: try Data(contentsOf: err), as: UTF8.self))
        }
        return stdout
    }

    static func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure("not a JSON object: \(text)")
        }
        return object
    }
}
