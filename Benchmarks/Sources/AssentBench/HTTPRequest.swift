/// One request a scenario step sends. The connection adds `Host`,
/// `User-Agent`, `Content-Length` and, when there is a body, `Content-Type: application/json`.
struct HTTPRequest {
    var method: String
    /// Path below the endpoint's base path, starting with `/`.
    var path: String
    /// Full `Authorization` header value, e.g. ``ScenarioSettings/secretAuthorization``.
    var authorization: String?
    var headers: [(name: String, value: String)] = []
    /// A JSON body, or nil for none.
    var body: [UInt8]?

    init(method: String, path: String, authorization: String?, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.headers = headers
        self.body = body
    }

    /// A `POST` with a JSON body given as text.
    static func post(_ path: String, authorization: String?, json: String) -> HTTPRequest {
        HTTPRequest(method: "POST", path: path, authorization: authorization, body: Array(json.utf8))
    }
}
