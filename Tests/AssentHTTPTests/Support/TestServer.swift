import Foundation
import AssentSync
@testable import AssentHTTP
import AssentLog

/// Collects log lines from an injected sink.
final class LogCapture: Sendable {
    private let storage = AssentLock<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    func logger(minimumLevel: Logger.Level = .info) -> Logger {
        Logger(minimumLevel: minimumLevel, sink: { line in self.storage.withLock { $0.append(line) } })
    }

    /// Lines parsed as JSON objects.
    var objects: [[String: Any]] {
        lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Waits (bounded) until a line satisfies `predicate`, and returns it.
    func waitForLine(timeout: Duration = .seconds(5), _ predicate: ([String: Any]) -> Bool) async -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = objects.first(where: predicate) { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

/// A started server on 127.0.0.1 with a free port.
struct TestServer {
    let server: HTTPServer
    let logs: LogCapture
    let metrics: HTTPMetrics
    var port: Int { server.port }

    static func start(
        _ router: Router,
        configure: (inout HTTPServer.Configuration) -> Void = { _ in }
    ) throws -> TestServer {
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        configuration.threads = 2
        configuration.shutdownGraceSeconds = 5
        configure(&configuration)
        let logs = LogCapture()
        let metrics = HTTPMetrics()
        let server = HTTPServer(configuration: configuration, router: router, logger: logs.logger(), metrics: metrics)
        try server.start()
        return TestServer(server: server, logs: logs, metrics: metrics)
    }

    /// Runs `body` against a fresh server and always shuts it down.
    static func with(
        _ router: Router,
        configure: (inout HTTPServer.Configuration) -> Void = { _ in },
        _ body: (TestServer) async throws -> Void
    ) async throws {
        let running = try start(router, configure: configure)
        do {
            try await body(running)
        } catch {
            await running.server.shutdown()
            throw error
        }
        await running.server.shutdown()
    }

    /// Waits (bounded) until every request box has been released.
    func waitUntilNoLiveRequests(timeout: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if server.liveRequestCount == 0 { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return server.liveRequestCount == 0
    }
}

/// Opens once `count` parties have arrived; each `arrive()` waits for that.
actor Gate {
    private let count: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    var arrivals: Int { arrived }

    func arrive() async {
        arrived += 1
        if arrived >= count {
            waiting.forEach { $0.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// A one-shot signal that tasks can await.
actor Signal {
    private var raised = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func raise() {
        raised = true
        waiting.forEach { $0.resume() }
        waiting = []
    }

    var isRaised: Bool { raised }

    func wait() async {
        if raised { return }
        await withCheckedContinuation { waiting.append($0) }
    }
}

extension HTTPResponse {
    static func plain(_ text: String) -> HTTPResponse {
        .text(200, text, contentType: "text/plain; charset=utf-8")
    }
}
