package import AssentHTTP
import AssentServerCore
package import AssentWire

/// How handlers read a request body: always into an `AssentWire` request type, through this one protocol, so the JSON
/// parser behind it (``WireRequestDecoding``; the tests hold it against a Foundation-based one) can be replaced without
/// touching a handler.
///
/// An implementation only parses a JSON object and reads fields as ``WireObject`` describes; the HTTP rules are
/// ``decode(_:from:)``'s.
package protocol RequestDecoding: Sendable {
    /// `type` read from `json`, which is never empty; a body that is not a JSON object is
    /// ``WireDecodingError/notJSON`` or ``WireDecodingError/notAnObject``.
    func decode<T: WireDecodable>(_ type: T.Type, json: [UInt8]) throws(WireDecodingError) -> T
}

extension RequestDecoding {
    /// `type` read from `request`'s body. An empty (or blank) body is `{}`; otherwise a `Content-Type`, when sent, must
    /// be `application/json` (`415 unsupported_media_type`). A refused body is `400 invalid_request` with the
    /// ``WireDecodingError``'s reason.
    package func decode<T: WireDecodable>(_ type: T.Type, from request: HTTPRequest) throws -> T {
        let isBlank = request.body.allSatisfy { $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }
        if !isBlank, let contentType = request.headers["Content-Type"],
           contentType.split(separator: ";").first.map({ $0.trimmingSpaces.lowercased() }) != "application/json" {
            throw AssentError(.unsupportedMediaType, "The body must be application/json.")
        }
        return try decode(type, object: isBlank ? Self.emptyObject : request.body)
    }

    /// `type` read from the JSON object `json` (a body, or a WebSocket message's data); a refusal is
    /// `400 invalid_request` with the ``WireDecodingError``'s reason, wherever the JSON came from.
    package func decode<T: WireDecodable>(_ type: T.Type, object json: [UInt8]) throws -> T {
        do {
            return try decode(type, json: json)
        } catch {
            throw AssentError(.invalidRequest, error.reason)
        }
    }

    private static var emptyObject: [UInt8] { [0x7b, 0x7d] }
}

extension RequestDecoding {
    /// The members of `request`'s JSON object body, in order, by the rules of ``decode(_:from:)`` (an empty body is
    /// `{}`, a `Content-Type` must be JSON), for a body whose member names are data (the tenant settings' `PATCH`).
    package func members(of request: HTTPRequest) throws -> [(key: String, value: JSONValue)] {
        let isBlank = request.body.allSatisfy { $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }
        if isBlank { return [] }
        if let contentType = request.headers["Content-Type"],
           contentType.split(separator: ";").first.map({ $0.trimmingSpaces.lowercased() }) != "application/json" {
            throw AssentError(.unsupportedMediaType, "The body must be application/json.")
        }
        do {
            return try JSONObjectFields(json: request.body).members
        } catch {
            throw AssentError(.invalidRequest, error.reason)
        }
    }
}
