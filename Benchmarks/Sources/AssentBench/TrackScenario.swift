/// `POST /v1/users/{userId}/actions/signIn` with the secret key, cycling through
/// `--users` users per connection; expects 200 with a `"token"`.
struct TrackScenario: Scenario {
    static let name = "track"
    static let summary = "POST /v1/users/{userId}/actions/signIn (secret key), userId cycles per connection"
    static let steps = ["track"]

    private let settings: ScenarioSettings
    private var counter = 0

    init(settings: ScenarioSettings) {
        self.settings = settings
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        let request = Self.request(settings: settings, number: counter)
        counter += 1
        try flow.perform(0, request, expecting: "a \"token\"") { $0.hasJSONKey("token") ? () : nil }
    }

    /// The track request for the connection's `number`th call; shared with scenarios
    /// that start with a track.
    static func request(settings: ScenarioSettings, number: Int) -> HTTPRequest {
        let user = "bench-\(settings.connection)-\(number % settings.usersPerConnection)"
        let body = #"{"ipAddress":"203.0.113.7","userAgent":"assent-bench","custom":{"n":\#(number)}}"#
        return .post("/v1/users/\(user)/actions/signIn", authorization: settings.secretAuthorization, json: body)
    }
}
