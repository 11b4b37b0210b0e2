import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AssentSync

/// A real `assentd` from the build directory, on a port the kernel picks, with a throwaway SQLite database holding
/// one tenant made by the real `assent admin tenant create` (with `settings` applied by `assent admin tenant
/// settings`). ``stop()`` ends it (SIGTERM, then SIGKILL) and removes its directory. The one launcher the SDK's and
/// the CLI's tests share.
package final class ServerProcess: Sendable {
    /// The server's own directory (its database, master key and home).
    package let directory: String
    /// The SQLite file.
    package let database: String
    /// `http://127.0.0.1:PORT`.
    package let url: String
    /// The tenant made at start.
    package let tenantID: String
    /// Its secret key.
    package let secretKey: String
    private let process: Process
    private let output: Buffer

    /// What the server prints, gathered from its pipe.
    private final class Buffer: Sendable {
        private let text = AssentLock("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var contents: String { text.withLock { $0 } }
    }

    /// Makes the tenant (with `settings` applied) and starts the server; returns once it listens.
    package init(settings: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-server-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = (directory as NSString).appendingPathComponent("assent.sqlite")
        let assent = try BuiltProduct.path("assent")
        let tenant = try Self.json(try ProcessRunner.output(assent, [
            "admin", "tenant", "create", "--database", database, "--name", "Test", "--json",
        ]))
        guard let id = tenant["tenantId"] as? String, let secret = tenant["secretKey"] as? String else {
            throw TestFailure("tenant create printed no tenantId/secretKey: \(tenant)")
        }
        tenantID = id
        secretKey = secret
        if !settings.isEmpty {
            _ = try ProcessRunner.output(
                assent, ["admin", "tenant", "settings", "--database", database, "--tenant", id, "--json"] + settings)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProduct.path("assentd"))
        // Rate limits off: every test client is 127.0.0.1.
        process.arguments = ["--listen", "127.0.0.1:0", "--database", database, "--rate-limits", "off"]
        process.environment = SanitizerOptions.environment.merging(["PATH": "/usr/bin:/bin", "HOME": directory]) { $1 }
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
            throw TestFailure("assentd did not start:\n" + output.contents)
        }
        url = found
    }

    /// The SDK's base URL.
    package var apiURL: String { url + "/v1" }

    /// Everything the server printed so far.
    package var log: String { output.contents }

    /// Stops the server and removes its directory.
    package func stop() {
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
    package func call(_ method: String, _ path: String, authorization: String, body: [String: Any]? = nil) async throws
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

    /// A `POST` as the initiating page makes it, with a Bearer track token; answers the body.
    package func call(_ path: String, bearer token: String, body: [String: Any]) async throws -> [String: Any] {
        try await call("POST", path, authorization: "Bearer \(token)", body: body).json
    }

    /// The tenant's secret key as HTTP Basic.
    package var secretAuthorization: String { "Basic " + Data("\(secretKey):".utf8).base64EncodedString() }

    /// `POST /v1/users/{user}/actions/{action}` with the secret key; answers the track response.
    package func track(user: String, action: String, _ attributes: [String: Any] = [:]) async throws -> [String: Any] {
        let (status, json) = try await call("POST", "/v1/users/\(user)/actions/\(action)", authorization: secretAuthorization,
                                            body: attributes)
        guard status == 200 else { throw TestFailure("track answered \(status): \(json)") }
        return json
    }

    // MARK: The CLI against this server

    /// The environment for `assent admin ...` against this server.
    package var adminEnvironment: [String: String] { ["ASSENT_URL": url, "ASSENT_SECRET_KEY": secretKey] }

    /// A track token for `user` and `action` from the real `assent admin track`.
    package func trackToken(user: String, action: String, _ extra: [String] = []) throws -> String {
        let result = try ProcessRunner.run(
            try BuiltProduct.path("assent"), ["admin", "track", "--user", user, "--action", action, "--json"] + extra,
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory].merging(adminEnvironment) { $1 })
        guard result.status == 0, let token = try result.object()["token"] as? String else {
            throw TestFailure("track failed: \(result.stderr) \(result.stdout)")
        }
        return token
    }

    /// `text` parsed as a JSON object.
    package static func json(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(text)")
        }
        return object
    }
}
