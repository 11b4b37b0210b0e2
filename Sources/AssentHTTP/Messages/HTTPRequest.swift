/// A complete HTTP request as handed to a route handler.
///
/// Path and query are kept exactly as the client sent them: `path` is not
/// percent-decoded (so `/users/a%2Fb` keeps `a%2Fb` as one segment), and the
/// router decodes route parameters itself.
package struct HTTPRequest: Sendable {
    /// The request method, e.g. `"GET"` or `"POST"`, as sent.
    package var method: String
    /// The raw path (not percent-decoded), without the query.
    package var path: String
    /// The raw query string without the leading `?`, not decoded; `nil` when the target had no `?`.
    package var rawQuery: String?
    /// The request header fields.
    package var headers: HTTPHeaders
    /// The request body (empty when there was none).
    package var body: [UInt8]
    /// The client's numeric IP address, e.g. `"127.0.0.1"`: the peer's, or behind a trusted proxy the one its
    /// `X-Forwarded-For` names (``HTTPServer/Configuration/trustedProxies``).
    package var remoteAddress: String
    /// The id of this request: the client's `X-Request-Id` when it is at most
    /// 128 characters of `[A-Za-z0-9._-]`, otherwise 16 random hex characters.
    /// Every response carries it back in `X-Request-Id`.
    package var requestID: String

    /// Creates a request; the server does this for each request it receives, tests may do it directly.
    package init(
        method: String,
        path: String,
        rawQuery: String? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1",
        requestID: String = "test"
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.requestID = requestID
    }

    /// The value of the first query item called `name`, percent-decoded.
    ///
    /// Only `%XX` escapes are decoded: a literal `+` stays `+` and is never
    /// turned into a space. Names are compared after decoding. An item without
    /// `=` has the value `""`. Items whose encoding is invalid are skipped.
    package func queryItem(_ name: String) -> String? {
        guard let rawQuery else { return nil }
        for item in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let key: Substring
            let value: Substring
            if let equals = item.firstIndex(of: "=") {
                key = item[..<equals]
                value = item[item.index(after: equals)...]
            } else {
                key = item
                value = ""
            }
            guard PercentDecoding.decode(key) == name else { continue }
            guard let decoded = PercentDecoding.decode(value) else { continue }
            return decoded
        }
        return nil
    }
}
