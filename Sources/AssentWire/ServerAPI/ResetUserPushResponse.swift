/// `POST /v1/users/{userId}/push/reset`: the user's push throttle and fraud lock are lifted.
public struct ResetUserPushResponse: Codable, Sendable, Hashable, WireSchema {
    /// The user named in the path.
    public var userId: String
    /// Always true: the throttle and the lock are gone, whether or not there were any.
    public var reset: Bool

    /// Creates the response.
    public init(userId: String, reset: Bool = true) {
        self.userId = userId
        self.reset = reset
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The user's push throttle and fraud lock are lifted.", [
        .field("userId", \.userId, nil),
        .field("reset", \.reset, nil),
    ])
}
