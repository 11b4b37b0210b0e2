import AssentWire
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `openapi/assent.json` against the endpoint catalogue (`AssentWire.Endpoint`), as a real server serves it at
/// `GET /openapi.json`: every API route is described and nothing else, so neither drifts. Fuzzing the routes against
/// their schemas is the e2e suite's (`Tests/e2e/test_openapi.py`).
@Suite struct OpenAPIDocumentTests {
    /// The catalogue routes the document leaves out, each for a reason: a WebSocket is not a JSON API, and routes
    /// under `/bench/` are benchmark-only. The pages (``PageRoute``) are not in the API catalogue at all.
    static let excluded: Set<Endpoint> = [.qrCodeWebSocket]

    static func isExcluded(_ endpoint: Endpoint) -> Bool {
        excluded.contains(endpoint) || endpoint.path.hasPrefix("/bench/")
    }

    /// The document as the server answers it, and the answer's content type.
    private static func served() async throws -> (document: [String: Any], bytes: Data, contentType: String?) {
        let server = try await LiveServer()
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(from: URL(string: server.baseURL + "/openapi.json")!)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (document, data, http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// `METHOD /path` of every operation in `document`.
    private static func operations(_ document: [String: Any]) throws -> [String: [String: Any]] {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [String: [String: Any]] = [:]
        for (path, item) in paths {
            for (method, operation) in item {
                operations["\(method.uppercased()) \(path)"] = try #require(operation as? [String: Any])
            }
        }
        return operations
    }

    @Test func `every catalogue route is in the served document and every documented route is in the catalogue`() async throws {
        let (document, bytes, contentType) = try await Self.served()
        #expect(contentType == "application/json")
        #expect(document["openapi"] as? String == "3.1.0")

        let documented = Set(try Self.operations(document).keys)
        let catalogue = Set(Endpoint.allCases.filter { !Self.isExcluded($0) }.map(\.rawValue))
        #expect(catalogue.subtracting(documented).sorted() == [], "catalogue routes missing from openapi/assent.json")
        #expect(documented.subtracting(catalogue).sorted() == [], "documented routes that are not in the catalogue")
        for endpoint in Self.excluded {
            #expect(!documented.contains(endpoint.rawValue), "\(endpoint) is on the exclusion list yet documented")
        }

        // What is served is the committed file, byte for byte (the build embeds it).
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi/assent.json")
        #expect(try Data(contentsOf: file) == bytes, "the server embeds a stale openapi/assent.json: rebuild")
    }

    @Test func `every operation names its security, its path parameters and the error envelope`() async throws {
        let (document, _, _) = try await Self.served()
        let components = try #require(document["components"] as? [String: Any])
        let schemes = Set(try #require(components["securitySchemes"] as? [String: Any]).keys)
        #expect(schemes == ["secretKey", "tenantId", "trackToken", "deviceSignature", "powerAuth", "metricsToken"])
        let envelope = try #require((components["schemas"] as? [String: Any])?["ErrorResponse"] as? [String: Any])
        #expect(Set(envelope["required"] as? [String] ?? []) == ["error", "errorCode", "errorDescription"])
        let responses = try #require(components["responses"] as? [String: [String: Any]])

        for (route, operation) in try Self.operations(document) {
            // Security is always stated: [] for public routes, otherwise schemes the document defines.
            let security = try #require(operation["security"] as? [[String: Any]], "\(route) states no security")
            for requirement in security {
                #expect(Set(requirement.keys).isSubset(of: schemes), "\(route) names an undefined scheme")
            }
            let path = String(route.split(separator: " ")[1])
            let templated = path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
            let parameters = (operation["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "path" }
            #expect(parameters.compactMap { $0["name"] as? String }.sorted() == templated.sorted(), "\(route) path parameters")

            // Every error answer is the envelope: each listed error status, and the default, refer to it.
            let answers = try #require(operation["responses"] as? [String: [String: Any]])
            #expect(answers["200"] != nil, "\(route) documents its success")
            #expect(answers["default"]?["$ref"] as? String == "#/components/responses/Error", "\(route) default")
            for (status, answer) in answers where status != "200" && status != "default" && !(route == "GET /healthz" && status == "503") {
                let name = try #require((answer["$ref"] as? String)?.split(separator: "/").last.map(String.init), "\(route) \(status)")
                let schema = (responses[name]?["content"] as? [String: [String: Any]])?["application/json"]?["schema"] as? [String: Any]
                #expect(schema?["$ref"] as? String == "#/components/schemas/ErrorResponse", "\(route) \(status)")
            }
        }
    }
}
