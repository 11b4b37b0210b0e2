/// `POST /v1/validate`: the backend checks a token a device or page obtained.
public struct ValidateRequest: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The token.
    public var token: String
    /// When given, the token must belong to this user.
    public var userId: String?
    /// When given, the token must be for this action code.
    public var action: String?

    /// Creates a request.
    public init(token: String) { self.token = token }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "The backend checks a token a device or page obtained.", blank: { Self(token: "") }, [
            .requiredString("token", \.token, maxLength: 4096, "The token."),
            .string("userId", \.userId, maxLength: 255, "When given, the token must belong to this user."),
            .string("action", \.action, maxLength: 100, "When given, the token must be for this action code."),
        ])
}
