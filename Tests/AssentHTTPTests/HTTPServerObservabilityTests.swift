import Foundation
import Testing
@testable import AssentHTTP

/// Access log, metrics, the safety net and request state release.
@Suite struct HTTPServerObservabilityTests {
    private static func router(_ release: Signal? = nil) -> Router {
        var router = Router()
        router.add("POST", "/v1/tokens/{tokenId}") { request, _ in .json(201, Array("{\"n\":\(request.body.count)}".utf8)) }
        router.add("GET", "/bad-status") { _, _ in HTTPResponse(status: 42) }
        router.add("GET", "/bad-header") { _, _ in
            var response = HTTPResponse.plain("x")
            response.headers.add("X-Injected", "a\r\nSet-Cookie: stolen=1")
            return response
        }
        router.add("GET", "/wait") { _, _ in
            await release?.wait()
            return .plain("waited")
        }
        return router
    }

    @Test func accessLogLineIsJSONWithTheRouteAndNoSecrets() async throws {
        try await TestServer.with(Self.router()) { server in
            let body = "SECRETBODY"
            let response = try await rawRequest(
                port: server.port,
                "POST /v1/tokens/SECRETID?token=SECRETQUERY HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer SECRETHEADER\r\n"
                    + "X-Request-Id: log-test-1\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            )
            #expect(response.status == 201)
            let line = try #require(await server.logs.waitForLine { $0["requestId"] as? String == "log-test-1" })
            #expect(line["msg"] as? String == "request")
            #expect(line["level"] as? String == "info")
            #expect(line["method"] as? String == "POST")
            #expect(line["route"] as? String == "/v1/tokens/{tokenId}")
            #expect(line["status"] as? Int == 201)
            #expect(line["bytesIn"] as? Int == body.utf8.count)
            #expect(line["bytesOut"] as? Int == response.body.count)
            #expect(line["remote"] as? String == "127.0.0.1")
            #expect(line["durationMs"] is NSNumber)
            #expect((line["time"] as? String)?.hasSuffix("Z") == true)
            #expect(Set(line.keys) == ["time", "level", "msg", "requestId", "method", "route", "status", "durationMs", "bytesIn", "bytesOut", "remote"])
            #expect(server.logs.lines.allSatisfy { !$0.contains("SECRET") })
        }
    }

    @Test func metricsCountRequestsByRoutePatternAndUnmatchedPaths() async throws {
        try await TestServer.with(Self.router()) { server in
            for target in ["/v1/tokens/a", "/v1/tokens/b"] {
                _ = try await rawRequest(port: server.port, "POST \(target) HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            }
            _ = try await rawRequest(port: server.port, get("/random/path/12345"))
            _ = try await rawRequest(port: server.port, "BREW /v1/tokens/a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(await server.waitUntilNoLiveRequests())
            _ = await server.logs.waitForLine { $0["method"] as? String == "BREW" }

            let text = server.metrics.prometheusText()
            #expect(text.contains(#"assent_http_requests_total{method="POST",route="/v1/tokens/{tokenId}",status="201"} 2"#))
            #expect(text.contains(#"assent_http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
            #expect(text.contains(#"assent_http_requests_total{method="OTHER",route="unmatched",status="405"} 1"#))
            #expect(text.contains(#"assent_http_request_duration_seconds_count{method="POST",route="/v1/tokens/{tokenId}"} 2"#))
            #expect(text.contains(#"assent_http_request_duration_seconds_bucket{method="POST",route="/v1/tokens/{tokenId}",le="+Inf"} 2"#))
            #expect(text.contains("# TYPE assent_http_open_connections gauge"))
            #expect(text.contains("assent_http_requests_in_flight 0\n"))
            #expect(!text.contains("random"))
            #expect(!text.contains("tokens/a"))
        }
    }

    @Test func openConnectionsGaugeFollowsConnections() async throws {
        try await TestServer.with(Self.router()) { server in
            let connection = try await onThread {
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /v1/tokens/x HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
                _ = try connection.readResponse()
                return connection
            }
            #expect(server.metrics.openConnections == 1)
            _ = connection
        }
    }

    @Test(arguments: ["/bad-status", "/bad-header"])
    func invalidHandlerResponsesBecomeA500WithoutInternals(_ target: String) async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(port: server.port, get(target))
            #expect(response.status == 500)
            #expect(response.json as? [String: String] == [
                "error": "internal_error", "errorCode": "internal_error",
                "errorDescription": "The server could not answer this request.",
            ])
            #expect(response.header("Set-Cookie") == nil)
            #expect(response.header("X-Injected") == nil)
            let error = await server.logs.waitForLine { $0["level"] as? String == "error" }
            #expect(error?["route"] as? String == target)
            #expect(!server.logs.lines.contains { $0.contains("stolen") })
        }
    }

    @Test func requestStateIsReleasedForAbortedRequests() async throws {
        let release = Signal()
        try await TestServer.with(Self.router(release)) { server in
            try await onThread {
                // Closed halfway through the body.
                let partial = try RawConnection(port: server.port)
                try partial.send("POST /v1/tokens/x HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nabc")
                // Closed halfway through the headers.
                let headless = try RawConnection(port: server.port)
                try headless.send("GET /wait HTTP/1.1\r\nHost: t\r\nX-Half")
                // Closed while its handler waits.
                let waiting = try RawConnection(port: server.port)
                try waiting.send("GET /wait HTTP/1.1\r\nHost: t\r\n\r\n")
                Thread.sleep(forTimeInterval: 0.2)
                _ = (partial, headless, waiting)
            }
            await release.raise()
            #expect(await server.waitUntilNoLiveRequests())
            #expect(server.metrics.requestsInFlight == 0)
        }
    }
}
