import AssentLog

/// An HTTP response produced by a route handler.
///
/// `Content-Length` and `Date` are added by the server; a `Content-Length` or
/// `Transfer-Encoding` set here is ignored. The server also adds `X-Request-Id`.
package struct HTTPResponse: Sendable, Equatable {
    /// The status code, 200...599. Anything else (an informational 1xx too) is
    /// answered as `500 internal_error`; `101` comes only from an accepted
    /// WebSocket handshake.
    package var status: Int
    /// The response header fields.
    package var headers: HTTPHeaders
    /// The response body.
    package var body: [UInt8]

    /// Creates a response from its parts.
    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response: `body` is sent as is, with `Content-Type: application/json`.
    package static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
    }

    /// A JSON error response with the body
    /// `{"error":code,"errorCode":code,"errorDescription":description}`, both strings JSON-escaped, and `"hint"` after
    /// them when one is given.
    package static func error(_ status: Int, code: String, description: String, hint: String? = nil) -> HTTPResponse {
        var text = "{\"error\":"
        JSONText.appendString(code, to: &text)
        text += ",\"errorCode\":"
        JSONText.appendString(code, to: &text)
        text += ",\"errorDescription\":"
        JSONText.appendString(description, to: &text)
        if let hint {
            text += ",\"hint\":"
            JSONText.appendString(hint, to: &text)
        }
        text += "}"
        return json(status, Array(text.utf8))
    }

    /// The `404 not_found` the server answers for a path no route matches.
    package static var notFound: HTTPResponse {
        error(404, code: "not_found", description: "No route matches this path.")
    }

    /// A text response: `body` as UTF-8 with the given `Content-Type`
    /// (e.g. `"text/plain; version=0.0.4; charset=utf-8"` for metrics).
    package static func text(_ status: Int, _ body: String, contentType: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(body.utf8))
    }
}
