import AssentServerCore
import AssentWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls `assentd`'s server API (`/v1/...`) with a tenant's secret key, the way the official server SDKs do:
/// HTTP Basic with the key as user and an empty password, camelCase JSON, percent-encoded path segments.
struct ServerAPIClient: Sendable {
    /// One answer: its status and body as received.
    struct Response: Sendable {
        /// The HTTP status.
        let status: Int
        /// The body, unchanged.
        let body: Data
        /// The response headers, by lower-cased name.
        var headers: [String: String] = [:]
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The server's base URL without `/v1` and without a trailing slash, e.g. `http://127.0.0.1:8420`.
    let baseURL: String
    private let secretKey: String
    private let version: String

    /// A client for `baseURL` (a trailing `/` or `/v1` is dropped) using `secretKey`.
    init(baseURL: String, secretKey: String, version: String) throws {
        var base = baseURL.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix(Endpoint.version) { base.removeLast(Endpoint.version.count) }
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else {
            throw CLIError.usage("--url must be an http(s) base URL such as http://127.0.0.1:8420, got '\(baseURL)'")
        }
        guard !secretKey.isEmpty else { throw CLIError.usage("the secret key must not be empty") }
        self.baseURL = base
        self.secretKey = secretKey
        self.version = version
    }

    /// Sends a request to `endpoint` with its path parameters percent-encoded, and `body` as JSON when given.
    func send(_ endpoint: Endpoint, _ parameters: [String], body: [String: JSONValue]? = nil) async throws -> Response {
        let url = try self.url(endpoint, parameters)
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = endpoint.method
        request.setValue("Basic " + Data((secretKey + ":").utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("assent-cli/\(version)", forHTTPHeaderField: "User-Agent")
        if let body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            request.httpBody = try encoder.encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw CLIError.failure(
                "cannot reach \(baseURL): \(ErrorText.describe(error))", errorCode: "network_error")
        }
        guard let http = response as? HTTPURLResponse else {
            throw CLIError.failure("\(baseURL) did not answer over HTTP", errorCode: "network_error")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return Response(status: http.statusCode, body: data, headers: headers)
    }

    /// `BASE` + the endpoint's path, every parameter percent-encoded so `/`, `?`, `#` and spaces stay inside it.
    func url(_ endpoint: Endpoint, _ parameters: [String]) throws -> URL {
        let encoded = try parameters.map { parameter in
            guard var encoded = parameter.addingPercentEncoding(withAllowedCharacters: Self.unreserved) else {
                throw CLIError.usage("cannot encode '\(parameter)' for a URL")
            }
            // `.` and `..` would be removed as dot segments on the way; encoded they reach the server as given.
            if encoded.allSatisfy({ $0 == "." }) { encoded = encoded.replacingOccurrences(of: ".", with: "%2E") }
            return encoded
        }
        let text = baseURL + endpoint.path(encoded)
        guard let url = URL(string: text) else { throw CLIError.usage("cannot make a URL from '\(text)'") }
        return url
    }

    /// RFC 3986 unreserved characters; everything else in a segment is percent-encoded.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
