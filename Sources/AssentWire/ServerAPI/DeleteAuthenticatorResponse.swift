/// `DELETE /v1/users/{userId}/authenticators/{userAuthenticatorId}`: the authenticator is removed.
public struct DeleteAuthenticatorResponse: Codable, Sendable, Hashable, WireSchema {
    /// The authenticator named in the path.
    public var userAuthenticatorId: String
    /// Always true (a missing authenticator is `404 not_found`).
    public var deleted: Bool

    /// Creates the response.
    public init(userAuthenticatorId: String, deleted: Bool = true) {
        self.userAuthenticatorId = userAuthenticatorId
        self.deleted = deleted
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The authenticator is removed.", [
        .field("userAuthenticatorId", \.userAuthenticatorId, nil),
        .field("deleted", \.deleted, nil),
    ])
}
