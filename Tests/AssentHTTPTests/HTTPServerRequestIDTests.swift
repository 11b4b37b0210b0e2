import Foundation
import Testing
@testable import AssentHTTP

@Suite struct HTTPServerRequestIDTests {
    private static func router() -> Router {
        var router = Router()
        router.add("GET", "/id") { request, _ in .plain(request.requestID) }
        router.add("GET", "/own-id") { _, _ in
            var response = HTTPResponse.plain("x")
            response.headers.add("X-Request-Id", "handler-must-not-win")
            return response
        }
        return router
    }

    @Test func saneIncomingRequestIDIsUsedAndEchoed() async throws {
        try await TestServer.with(Self.router()) { server in
            let id = "client.id_" + String(repeating: "x", count: 100) + "-1"
            let response = try await rawRequest(port: server.port, get("/id", headers: ["X-Request-Id: \(id)"]))
            #expect(response.text == id)
            #expect(response.header("X-Request-Id") == id)
        }
    }

    @Test(arguments: [String(repeating: "a", count: 129), "has space", "semi;colon", "quote\"", ""])
    func insaneIncomingRequestIDIsReplaced(_ id: String) async throws {
        try await TestServer.with(Self.router()) { server in
            let response = try await rawRequest(port: server.port, get("/id", headers: ["X-Request-Id: \(id)"]))
            let echoed = try #require(response.header("X-Request-Id"))
            #expect(echoed != id)
            #expect(echoed.count == 16)
            #expect(echoed.allSatisfy { $0.isHexDigit })
            #expect(response.text == echoed)
        }
    }

    @Test func everyResponseCarriesItsOwnGeneratedID() async throws {
        try await TestServer.with(Self.router()) { server in
            var ids: Set<String> = []
            for target in ["/id", "/id", "/missing", "/own-id"] {
                let response = try await rawRequest(port: server.port, get(target))
                let values = response.headers.filter { $0.0.lowercased() == "x-request-id" }.map(\.1)
                #expect(values.count == 1)
                ids.insert(try #require(values.first))
            }
            #expect(ids.count == 4)
            #expect(!ids.contains("handler-must-not-win"))
        }
    }
}
