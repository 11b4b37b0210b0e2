/// `POST /v1/validate`: the backend checks a token a device or page obtained.
public struct ValidateRequest: Encodable, Sendable, Hashable, WireDecodable {
    /// The token.
    public var token: String
    /// When given, the token must belong to this user.
    public var userId: String?
    /// When given, the token must be for this action code.
    public var action: String?

    /// Creates a request.
    public init(token: String) { self.token = token }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        token = try body.requiredString("token", maxLength: 4096)
        userId = try body.string("userId", maxLength: 255)
        action = try body.string("action", maxLength: 100)
    }
}
