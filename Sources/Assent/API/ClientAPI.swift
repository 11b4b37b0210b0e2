import AssentCrypto
import AssentWire
import Foundation

/// The client API as the device calls it: URLs under the base URL, the two authentication styles, the SDK headers,
/// JSON bodies, and the one mapping from HTTP answers to results or ``ClientFailure``s.
struct ClientAPI: Sendable {
    /// How a request authenticates.
    enum Authorization: Sendable {
        /// `Basic base64url_no_padding(tenantID + ":")` (iOS style); the signature in the body or a header proves
        /// the device.
        case tenant
        /// `Bearer <token>`: a track token.
        case bearer(String)
    }

    let tenantID: String
    /// Without a trailing `/`.
    let baseURL: String
    let transport: any Transport

    init(tenantID: String, baseURL: String, transport: any Transport) {
        var base = baseURL.trimmingCharacters(in: .whitespacesAndNewlines)
        while base.hasSuffix("/") { base.removeLast() }
        self.tenantID = tenantID
        self.baseURL = base
        self.transport = transport
    }

    /// The `?publicKey=` value: base64url without padding of the UTF-8 of the base64 SPKI (iOS style).
    static func publicKeyQuery(_ publicKey: String) -> String {
        Base64.encodeURL(Array(publicKey.utf8))
    }

    /// The tenant `Authorization` header value.
    var tenantAuthorization: String {
        "Basic " + Base64.encodeURL(Array("\(tenantID):".utf8))
    }

    /// Sends a request without a body.
    func send<Response: Decodable>(
        _ endpoint: Endpoint, publicKey: String? = nil, authorization: Authorization = .tenant,
        headers: [String: String] = [:], as type: Response.Type
    ) async throws(ClientFailure) -> Response {
        try await send(endpoint, publicKey: publicKey, authorization: authorization, headers: headers,
                       body: nil as Data?, as: type)
    }

    /// Sends `body` as JSON.
    func send<Body: Encodable, Response: Decodable>(
        _ endpoint: Endpoint, publicKey: String? = nil, authorization: Authorization = .tenant,
        headers: [String: String] = [:], json body: Body, as type: Response.Type
    ) async throws(ClientFailure) -> Response {
        return try await send(endpoint, publicKey: publicKey, authorization: authorization, headers: headers,
                              body: try Self.encode(body), as: type)
    }

    /// `body` as the JSON bytes the SDK sends (sorted keys, slashes unescaped).
    static func encode<Body: Encodable>(_ body: Body) throws(ClientFailure) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(body)
        } catch {
            throw ClientFailure("Cannot encode the request: \(error)", AssentErrorCode.apiError)
        }
    }

    /// Sends `body` (already encoded JSON, or nil) exactly as given: what a PowerAuth signature covers must be the
    /// bytes on the wire.
    func send<Response: Decodable>(
        _ endpoint: Endpoint, publicKey: String?, authorization: Authorization, headers extra: [String: String],
        body: Data?, as type: Response.Type
    ) async throws(ClientFailure) -> Response {
        var text = baseURL + endpoint.clientPath
        if let publicKey { text += "?publicKey=" + Self.publicKeyQuery(publicKey) }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw ClientFailure("Invalid base URL '\(baseURL)'.", AssentErrorCode.apiError)
        }
        var headers = [
            "X-Authsignal-SDK": Assent.sdkName,
            "X-Authsignal-Version": Assent.version,
            "X-Authsignal-Tenant-ID": tenantID,
            "User-Agent": "AssentSwiftSDK/\(Assent.version)",
            "Accept": "application/json",
        ]
        switch authorization {
        case .tenant: headers["Authorization"] = tenantAuthorization
        case .bearer(let token): headers["Authorization"] = "Bearer \(token)"
        }
        if body != nil { headers["Content-Type"] = "application/json" }
        headers.merge(extra) { $1 }
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(method: endpoint.method, url: url, headers: headers, body: body))
        } catch {
            throw ClientFailure(error.localizedDescription, AssentErrorCode.networkError)
        }
        guard response.status == 200 else { throw Self.failure(from: response) }
        guard let decoded = try? JSONDecoder().decode(Response.self, from: response.body) else { throw .decoding }
        return decoded
    }

    /// The error of a non-200 answer: the envelope's `errorDescription` (else `error`) and `errorCode` (else
    /// `error`), read leniently; 404 with neither is a wrong base URL.
    static func failure(from response: TransportResponse) -> ClientFailure {
        let object = (try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])) as? [String: Any]
        func field(_ name: String) -> String? {
            guard let value = object?[name] as? String, !value.isEmpty else { return nil }
            return value
        }
        let description = field("errorDescription") ?? field("error")
        let code = field("errorCode") ?? field("error")
        if response.status == 404, description == nil, code == nil { return .endpointNotFound }
        var failure = ClientFailure(
            description ?? code ?? "Unexpected error (HTTP status \(response.status)).", code ?? AssentErrorCode.apiError)
        failure.httpStatus = response.status
        return failure
    }
}
