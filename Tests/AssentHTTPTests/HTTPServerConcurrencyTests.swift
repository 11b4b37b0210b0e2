import Foundation
import Testing
@testable import AssentHTTP

/// Handlers that wait do not hold libmicrohttpd's threads.
@Suite struct HTTPServerConcurrencyTests {
    @Test(.timeLimit(.minutes(1)))
    func twoHundredHandlersWaitTogetherOnTwoThreads() async throws {
        let total = 200
        let gate = Gate(count: total)
        var router = Router()
        router.add("GET", "/wait/{n}") { _, parameters in
            await gate.arrive()
            return .plain("done \(parameters["n"] ?? "?")")
        }
        router.add("GET", "/fast") { _, _ in .plain("fast") }

        try await TestServer.with(router, configure: { $0.threads = 2 }) { server in
            let port = server.port
            // 199 requests, each on its own connection; their handlers block at the gate.
            let connections = try await onThread {
                try (0..<(total - 1)).map { n in
                    let connection = try RawConnection(port: port, timeoutSeconds: 30)
                    try connection.send("GET /wait/\(n) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                    return connection
                }
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while await gate.arrivals < total - 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(await gate.arrivals == total - 1)

            // With 199 handlers parked, the two libmicrohttpd threads still serve.
            let fast = try await rawRequest(port: port, get("/fast"))
            #expect(fast.text == "fast")
            #expect(server.metrics.requestsInFlight >= total - 1)

            // The 200th opens the gate; every request gets its own answer.
            let last = try await rawRequest(port: port, get("/wait/\(total - 1)"))
            #expect(last.text == "done \(total - 1)")
            let bodies = try await onThread { try connections.map { try $0.readResponse().text } }
            #expect(bodies == (0..<(total - 1)).map { "done \($0)" })
            #expect(await server.waitUntilNoLiveRequests())
        }
    }
}
