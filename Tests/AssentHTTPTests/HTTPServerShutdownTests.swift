import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import AssentHTTP

/// Start errors and graceful shutdown.
@Suite struct HTTPServerShutdownTests {
    /// Tries to connect until the connection is refused (bounded); returns whether it was.
    private static func waitUntilRefused(port: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let refused = try await onThread { () -> Bool in
                do {
                    _ = try RawConnection(port: port)
                    return false
                } catch let error as RawConnection.ConnectError {
                    return error.errno == ECONNREFUSED
                }
            }
            if refused { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test(.timeLimit(.minutes(1)))
    func inFlightRequestFinishesWithItsFullResponseAndNewConnectionsAreRefused() async throws {
        let started = Signal()
        let release = Signal()
        let bodySize = 512 * 1024
        var router = Router()
        router.add("GET", "/slow") { _, _ in
            await started.raise()
            await release.wait()
            return HTTPResponse(status: 200, body: [UInt8](repeating: UInt8(ascii: "z"), count: bodySize))
        }
        let running = try TestServer.start(router) { $0.shutdownGraceSeconds = 20 }
        let port = running.port

        async let inFlight = onThread {
            let connection = try RawConnection(port: port, timeoutSeconds: 30)
            try connection.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
            return try connection.readResponse()
        }
        await started.wait()

        let shutdownStarted = ContinuousClock.now
        let shutdown = Task { await running.server.shutdown() }
        #expect(try await Self.waitUntilRefused(port: port))

        await release.raise()
        let response = try await inFlight
        #expect(response.status == 200)
        #expect(response.body.count == bodySize)
        #expect(response.body.allSatisfy { $0 == UInt8(ascii: "z") })
        #expect(response.header("Connection")?.lowercased() == "close")

        await shutdown.value
        #expect(ContinuousClock.now - shutdownStarted < .seconds(10))
        #expect(running.server.liveRequestCount == 0)
        let stopped = await running.logs.waitForLine { $0["msg"] as? String == "http server stopped" }
        #expect(stopped?["forcedResponses"] as? Int == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func handlersStillRunningAfterTheGraceGet503() async throws {
        let started = Signal()
        let never = Signal()
        var router = Router()
        router.add("GET", "/stuck") { _, _ in
            await started.raise()
            await never.wait()
            return .plain("too late")
        }
        let running = try TestServer.start(router) { $0.shutdownGraceSeconds = 0.3 }
        let port = running.port
        async let stuck = rawRequest(port: port, get("/stuck"))
        await started.wait()

        let before = ContinuousClock.now
        await running.server.shutdown()
        #expect(ContinuousClock.now - before < .seconds(3))

        let response = try await stuck
        #expect(response.status == 503)
        #expect(response.json?["errorCode"] as? String == "shutting_down")
        #expect(response.header("X-Request-Id") != nil)
        await never.raise()  // the late handler result is dropped
        #expect(running.server.liveRequestCount == 0)
    }

    @Test func idleKeepAliveConnectionsDoNotHoldUpShutdown() async throws {
        var router = Router()
        router.add("GET", "/hello") { _, _ in .plain("hi") }
        let running = try TestServer.start(router)
        let connection = try await onThread {
            let connection = try RawConnection(port: running.port)
            try connection.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try connection.readResponse()
            return connection
        }
        let before = ContinuousClock.now
        await running.server.shutdown()
        #expect(ContinuousClock.now - before < .seconds(2))
        let rest = try await onThread { try connection.readUntilClosed() }
        #expect(rest.isEmpty)
    }

    @Test func portZeroPicksAFreePort() async throws {
        let running = try TestServer.start(Router())
        let second = try TestServer.start(Router())
        #expect(running.port > 0)
        #expect(running.port != 8420)
        #expect(second.port != running.port)
        await running.server.shutdown()
        await second.server.shutdown()
        #expect(running.port > 0)  // still reported after shutdown
    }

    @Test func aServerDroppedWithoutShutdownStopsItsDaemon() async throws {
        var router = Router()
        router.add("GET", "/hello") { _, _ in .plain("hi") }
        var running: TestServer? = try TestServer.start(router)
        let port = try #require(running?.port)
        #expect(try await rawRequest(port: port, get("/hello")).status == 200)
        running = nil
        let refused = try await onThread { () -> Bool in
            do {
                _ = try RawConnection(port: port)
                return false
            } catch let error as RawConnection.ConnectError {
                return error.errno == ECONNREFUSED
            }
        }
        #expect(refused)
    }

    @Test func bindingABusyPortThrowsAddressInUse() async throws {
        let first = try TestServer.start(Router())
        var configuration = HTTPServer.Configuration()
        configuration.port = first.port
        let second = HTTPServer(configuration: configuration, router: Router(), logger: LogCapture().logger(), metrics: HTTPMetrics())
        #expect(throws: HTTPServerError(.addressInUse, "")) { try second.start() }
        do {
            try second.start()
        } catch let error as HTTPServerError {
            #expect(error.code == .addressInUse)
            #expect(error.description.contains("\(first.port)"))
        }
        await first.server.shutdown()
        await second.shutdown()
    }

    @Test func startErrorsHaveStableCodes() async throws {
        func server(_ configure: (inout HTTPServer.Configuration) -> Void) -> HTTPServer {
            var configuration = HTTPServer.Configuration()
            configuration.port = 0
            configure(&configuration)
            return HTTPServer(configuration: configuration, router: Router(), logger: LogCapture().logger(), metrics: HTTPMetrics())
        }
        #expect(throws: HTTPServerError(.invalidConfiguration, "")) { try server { $0.threads = 0 }.start() }
        #expect(throws: HTTPServerError(.invalidConfiguration, "")) { try server { $0.port = 70_000 }.start() }
        #expect(throws: HTTPServerError(.invalidConfiguration, "")) { try server { $0.maxBodyBytes = -1 }.start() }
        #expect(throws: HTTPServerError(.addressNotAvailable, "")) { try server { $0.host = "192.0.2.1" }.start() }
        #expect(throws: HTTPServerError(.hostNotResolved, "")) { try server { $0.host = "no such host.invalid" }.start() }

        let twice = server { _ in }
        try twice.start()
        #expect(throws: HTTPServerError(.alreadyStarted, "")) { try twice.start() }
        await twice.shutdown()
        await twice.shutdown()
        #expect(throws: HTTPServerError(.alreadyStopped, "")) { try twice.start() }

        let neverStarted = server { _ in }
        await neverStarted.shutdown()
        #expect(neverStarted.port == 0)
    }
}
