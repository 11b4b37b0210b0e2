/// `DELETE /v1/users/{userId}`: the user and everything of theirs is gone.
public struct DeleteUserResponse: Codable, Sendable, Hashable, WireSchema {
    /// The user named in the path.
    public var userId: String
    /// False when the tenant had no such user.
    public var deleted: Bool

    /// Creates the response.
    public init(userId: String, deleted: Bool) {
        self.userId = userId
        self.deleted = deleted
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The user and everything of theirs is gone.", [
        .field("userId", \.userId, nil),
        .field("deleted", \.deleted, "False when there was no such user."),
    ])
}
