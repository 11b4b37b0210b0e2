public import Assent
import Foundation

/// What a test reads from a request that ``FakeTransport`` recorded.
extension TransportRequest {
    /// The error ``jsonBody()`` throws when the request has no body or its body is not a JSON object.
    public struct NotAJSONObject: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}
        /// "the request has no JSON object body".
        public var description: String { "the request has no JSON object body" }
    }

    /// The body as a JSON object (values as `JSONSerialization` reads them).
    ///
    /// - Throws: ``NotAJSONObject`` when there is no body or it is not a JSON object; a `JSONSerialization` error when
    ///   it is not JSON at all.
    public func jsonBody() throws -> [String: Any] {
        guard let body, let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw NotAJSONObject()
        }
        return object
    }

    /// The value of query item `name` exactly as written in the URL (not percent-decoded), `""` for a name without
    /// a value, nil when the URL has no such item.
    public func query(_ name: String) -> String? {
        guard let query = url.query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }
}
