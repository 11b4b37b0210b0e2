/// The JSON of `GET /admin/api/users/{userId}`: the user's recent challenges, newest first, as the user page shows
/// them (times in ISO 8601; `answeredAt` empty while unanswered). `kind` and `state` are the wire names (`push`,
/// `approved`), `kindLabel` and `stateLabel` the words the page shows ("Push", "Approved").
struct ConsoleUserData: Encodable, Sendable {
    /// One challenge row.
    struct Row: Encodable, Sendable {
        var challengeId: String
        var url: String
        var kind: String
        var kindLabel: String
        var actionCode: String
        var state: String
        var stateLabel: String
        var createdAt: String
        var answeredAt: String
    }

    var userId: String
    var challenges: [Row]
}
