import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A real `assentd` for the device command tests: built next to the tests, on a port the kernel picks, with a
/// throwaway database holding one tenant made by `assent admin tenant create`. ``stop()`` ends it.
final class DeviceTestServer: Sendable {
    let directory: String
    let database: String
    /// `http://127.0.0.1:PORT`.
    let url: String
    let tenantID: String
    let secretKey: String
    private let process: Process
    private let output: Buffer

    final class Buffer: Sendable {
        private let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var contents: String { text.withLock { $0 } }
    }

    init(settings: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-cli-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = (directory as NSString).appendingPathComponent("assent.sqlite")
        let created = try CLIProcess.run(["admin", "tenant", "create", "--database", database, "--json"])
        guard created.status == 0, let id = try created.object()["tenantId"] as? String,
              let secret = try created.object()["secretKey"] as? String
        else { throw CLIProcess.Failure("tenant create failed: \(created.stderr)") }
        tenantID = id
        secretKey = secret
        if !settings.isEmpty {
            let changed = try CLIProcess.run(
                ["admin", "tenant", "settings", "--database", database, "--tenant", id, "--json"] + settings)
            guard changed.status == 0 else { throw CLIProcess.Failure("tenant settings failed: \(changed.stderr)") }
        }

        let process = Process()
        process.executableURL = CLIProcess.executable.deletingLastPathComponent().appendingPathComponent("assentd")
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
            throw CLIProcess.Failure("assentd did not start:\n" + output.contents)
        }
        url = found
    }

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

    /// The environment for `assent admin ...` against this server.
    var adminEnvironment: [String: String] { ["ASSENT_URL": url, "ASSENT_SECRET_KEY": secretKey] }

    /// A track token for `user` and `action` from `assent admin track`.
    func trackToken(user: String, action: String, _ extra: [String] = []) throws -> String {
        let result = try CLIProcess.run(["admin", "track", "--user", user, "--action", action, "--json"] + extra,
                                        environment: adminEnvironment)
        guard result.status == 0, let token = try result.object()["token"] as? String else {
            throw CLIProcess.Failure("track failed: \(result.stderr) \(result.stdout)")
        }
        return token
    }

    /// One JSON call as the initiating page makes it.
    func call(_ path: String, bearer token: String, body: [String: Any]) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: url + path)!, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
