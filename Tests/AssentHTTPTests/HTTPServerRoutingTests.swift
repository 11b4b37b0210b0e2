import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import AssentHTTP

/// Routing, error bodies, raw paths and queries, over a real connection.
@Suite struct HTTPServerRoutingTests {
    private static func router() -> Router {
        var router = Router()
        router.add("GET", "/v1/users/{userId}/actions/{action}/{idempotencyKey}") { request, parameters in
            let object: [String: String] = [
                "userId": parameters["userId"] ?? "-",
                "action": parameters["action"] ?? "-",
                "key": parameters["idempotencyKey"] ?? "-",
                "path": request.path,
            ]
            return .json(200, Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        }
        router.add("POST", "/v1/users/{userId}/actions/{action}/{idempotencyKey}") { request, _ in
            .json(200, request.body)
        }
        router.add("GET", "/query") { request, _ in
            let object: [String: String] = [
                "raw": request.rawQuery ?? "<nil>",
                "sig": request.queryItem("sig") ?? "<nil>",
                "other": request.queryItem("other") ?? "<nil>",
            ]
            return .json(200, Array(try! JSONSerialization.data(withJSONObject: object)))
        }
        router.add("GET", "/request") { request, _ in
            let object: [String: String] = [
                "method": request.method,
                "remote": request.remoteAddress,
                "requestId": request.requestID,
                "header": request.headers["x-custom"] ?? "<nil>",
                "headerCount": String(request.headers.values(for: "X-Multi").count),
            ]
            return .json(200, Array(try! JSONSerialization.data(withJSONObject: object)))
        }
        return router
    }

    @Test func routeParametersArriveDecodedWhileThePathStaysRaw() async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(port: server.port, get("/v1/users/a%2Fb/actions/caf%C3%A9/k+1%2B"))
            #expect(response.status == 200)
            let json = try #require(response.json as? [String: String])
            #expect(json["userId"] == "a/b")
            #expect(json["action"] == "café")
            #expect(json["key"] == "k+1+")
            #expect(json["path"] == "/v1/users/a%2Fb/actions/caf%C3%A9/k+1%2B")
        }
    }

    @Test func rawQueryKeepsPlusAndEscapesAndQueryItemsDecodeOnlyEscapes() async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(port: server.port, get("/query?sig=a+b%2Bc%3D%3D&other=x%20y"))
            let json = try #require(response.json as? [String: String])
            #expect(json["raw"] == "sig=a+b%2Bc%3D%3D&other=x%20y")
            #expect(json["sig"] == "a+b+c==")
            #expect(json["other"] == "x y")
            let noQuery = try await rawRequest(port: server.port, get("/query"))
            #expect((noQuery.json as? [String: String])?["raw"] == "<nil>")
            let emptyQuery = try await rawRequest(port: server.port, get("/query?"))
            #expect((emptyQuery.json as? [String: String])?["raw"] == "")
        }
    }

    @Test func unknownPathIsA404JSONError() async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(port: server.port, get("/nope/../etc"))
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.json?["error"] as? String == "not_found")
            #expect(response.json?["errorCode"] as? String == "not_found")
            #expect(response.json?["errorDescription"] is String)
            #expect(response.header("X-Request-Id")?.count == 16)
        }
    }

    @Test func wrongMethodIsA405WithAllow() async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(
                port: server.port,
                "DELETE /v1/users/u/actions/a/k HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
            )
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD, POST")
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.json?["errorCode"] as? String == "method_not_allowed")
        }
    }

    @Test func invalidPercentEncodingInAParameterIsNotFound() async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(port: server.port, get("/v1/users/%C3/actions/a/k"))
            #expect(response.status == 404)
        }
    }

    @Test func headersBodyMethodAndRemoteReachTheHandler() async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(
                port: server.port,
                get("/request", headers: ["X-Custom: hello", "X-Multi: 1", "x-multi: 2"])
            )
            let json = try #require(response.json as? [String: String])
            #expect(json["method"] == "GET")
            #expect(json["remote"] == "127.0.0.1")
            #expect(json["header"] == "hello")
            #expect(json["headerCount"] == "2")
            #expect(json["requestId"] == response.header("X-Request-Id"))

            let body = #"{"a":1}"#
            let posted = try await rawRequest(
                port: server.port,
                "POST /v1/users/u/actions/a/k HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            )
            #expect(posted.text == body)
        }
    }

    @Test func headGetsHeadersOfTheGetRouteWithoutBody() async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await onThread {
                let connection = try RawConnection(port: server.port)
                try connection.send("HEAD /query HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                return try connection.readUntilClosed()
            }
            let text = String(decoding: response, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(text.hasSuffix("\r\n\r\n"))
        }
    }

    @Test func keepAliveConnectionServesSeveralRequests() async throws {
        try await TestServer.with(Self.router()) { server in
            let statuses = try await onThread {
                let connection = try RawConnection(port: server.port)
                var statuses: [Int] = []
                for target in ["/query?a=1", "/missing", "/query?b=2"] {
                    try connection.send("GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
                    statuses.append(try connection.readResponse().status)
                }
                return statuses
            }
            #expect(statuses == [200, 404, 200])
        }
    }

    @Test func servesIPv6Loopback() async throws {
        try await TestServer.with(Self.router(), configure: { $0.host = "::1" }) { server in
            let response = try await onThread {
                let connection = try RawConnection(port: server.port, ipv6: true)
                try connection.send(get("/request"))
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect((response.json as? [String: String])?["remote"] == "::1")
        }
    }

    @Test func urlSessionSeesJSONErrorsAndContentType() async throws {
        try await TestServer.with(Self.router()) { server in
            let url = URL(string: "http://127.0.0.1:\(server.port)/v1/nothing")!
            let (data, response) = try await URLSession.shared.data(for: URLRequest(url: url))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 404)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
            #expect(object["error"] == "not_found")
            #expect(Set(object.keys) == ["error", "errorCode", "errorDescription"])
        }
    }
}
