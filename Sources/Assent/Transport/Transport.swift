public import Foundation

/// How the SDK reaches the server. The public initializer wires ``URLSessionTransport``; tests inject a fake that
/// records requests and answers canned responses; an app can wrap its own HTTP stack.
///
/// A transport sends exactly the request it is given and reports any HTTP answer, whatever its status, as a
/// ``TransportResponse``. It throws only when no HTTP answer arrived (connection refused, timeout, TLS failure);
/// the SDK reports that as `network_error`.
public protocol Transport: Sendable {
    /// Sends one request and returns the server's answer.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// One HTTP request, fully formed: the SDK has already chosen its URL, headers and body.
public struct TransportRequest: Sendable, Hashable {
    /// `GET`, `POST` or `PATCH`.
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields by name, as the SDK spells them (e.g. `Authorization`, `Content-Type`).
    public var headers: [String: String]
    /// The body (JSON), or nil for none.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// One HTTP answer.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The body as received (possibly empty).
    public var body: Data

    /// Creates a response.
    public init(status: Int, body: Data = Data()) {
        self.status = status
        self.body = body
    }
}
