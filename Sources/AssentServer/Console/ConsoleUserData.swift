/// The JSON of `GET /admin/api/users/{userId}`: the user's recent challenges, newest first, as the user page shows
/// them (times in ISO 8601; `answeredAt` empty while unanswered).
struct ConsoleUserData: Encodable, Sendable {
    /// One challenge row.
    struct Row: Encodable, Sendable {
        var challengeId: String
        var url: String
        var kind: String
        var actionCode: String
        var state: String
        var createdAt: String
        var answeredAt: String
    }

    var userId: String
    var challenges: [Row]
}
