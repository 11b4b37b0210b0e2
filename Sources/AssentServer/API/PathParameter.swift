import AssentHTTP
import AssentServerCore
import AssentWire

/// Checks path parameters, and the query parameters and header values the server reads as identifiers, before they
/// reach a service: the same ``WireCharacters/identifier`` rule as every string in a JSON body, so `<id>%00junk`
/// never reaches the row of `<id>` (both stores end a string at NUL).
enum PathParameter {
    /// A user id: 1 to 255 bytes without control characters.
    static func userID(_ parameters: RouteParameters) throws -> String {
        try value(parameters, "userId", maxBytes: 255)
    }

    /// An action code: 1 to 100 characters of letters, digits and `_ - . :` (``ActionCode``).
    static func actionCode(_ parameters: RouteParameters) throws -> String {
        let code = try value(parameters, "action", maxBytes: ActionCode.maxLength)
        guard ActionCode.isValid(code) else { throw AssentError(.invalidRequest, WireDecodingError.notActionCode("action").reason) }
        return code
    }

    /// Any other identifier: 1 to 200 bytes without control characters.
    static func identifier(_ parameters: RouteParameters, _ name: String) throws -> String {
        try value(parameters, name, maxBytes: 200)
    }

    /// The query parameter `name` as an identifier: nil when absent, refused when empty, over `maxBytes` or holding
    /// a control character.
    static func query(_ request: HTTPRequest, _ name: String, maxBytes: Int) throws -> String? {
        guard let value = request.queryItem(name) else { return nil }
        return try checked(value, name, maxBytes: maxBytes)
    }

    /// `value` (named `name`, e.g. a header's identifier) when it is 1 to `maxBytes` bytes without control characters.
    static func checked(_ value: String, _ name: String, maxBytes: Int) throws -> String {
        guard !value.isEmpty, value.utf8.count <= maxBytes, WireCharacters.identifier.allows(value) else {
            throw AssentError(.invalidRequest, "\(name) must be 1 to \(maxBytes) bytes without control characters.")
        }
        return value
    }

    private static func value(_ parameters: RouteParameters, _ name: String, maxBytes: Int) throws -> String {
        try checked(parameters[name] ?? "", name, maxBytes: maxBytes)
    }
}
