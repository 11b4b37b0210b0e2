import AssentHTTP
import AssentServerCore
import AssentWire

/// CORS for the client API, so Authsignal's browser SDK (and any page on the tenant's own origin) can call `assentd`
/// from another origin. The client API authenticates with headers (a Bearer token, or a tenant ID plus a device
/// signature), never with cookies, so every origin may call it and credentials are not allowed. The server API
/// (secret keys) gets no CORS headers: browsers must never hold a secret key.
enum CrossOrigin {
    static let allowedHeaders = "Authorization, Content-Type, X-Authsignal-Signature, X-Authsignal-SDK, "
        + "X-Authsignal-Version, X-Authsignal-Tenant-ID, X-Authsignal-Native-SDK, X-Authsignal-Native-Version, X-Request-Id, "
        + "X-PowerAuth-Authorization"

    /// Registers `handler` for `endpoint` with CORS headers on every answer, and a preflight (`OPTIONS`) for its path
    /// the first time the path is seen.
    static func add(_ router: inout Router, _ endpoint: Endpoint, _ handler: @escaping Router.Handler) {
        let pattern = endpoint.path
        router.add(endpoint) { request, parameters in
            var response = await handler(request, parameters)
            response.headers.replace("Access-Control-Allow-Origin", "*")
            response.headers.replace("Access-Control-Expose-Headers", "X-Request-Id")
            return response
        }
        if case .found = router.match(method: "OPTIONS", path: samplePath(pattern)) { return }
        router.add("OPTIONS", pattern) { request, _ in
            var response = HTTPResponse(status: 204)
            response.headers.replace("Access-Control-Allow-Origin", "*")
            response.headers.replace("Access-Control-Allow-Methods", "GET, POST, PATCH, OPTIONS")
            response.headers.replace("Access-Control-Allow-Headers", allowedHeaders)
            response.headers.replace("Access-Control-Max-Age", "600")
            return response
        }
    }

    /// A concrete path matching `pattern` (parameters filled with `x`), to ask the router what it has.
    private static func samplePath(_ pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("{") ? "x" : String($0) }.joined(separator: "/")
    }
}
