/// Two steps per flow: track a sign-in, then validate the token it returned, as an
/// app backend does around a challenge. Reports flows/s and per-step latency.
struct TrackValidateScenario: Scenario {
    static let name = "track-validate"
    static let summary = "track, then POST /v1/validate with the token it returned"
    static let steps = ["track", "validate"]

    private let settings: ScenarioSettings
    private var counter = 0

    init(settings: ScenarioSettings) {
        self.settings = settings
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        let track = TrackScenario.request(settings: settings, number: counter)
        counter += 1
        let token = try flow.perform(0, track, expecting: "a \"token\"") { $0.jsonString(forKey: "token") }
        let validate = HTTPRequest.post(
            "/v1/validate", authorization: settings.secretAuthorization, json: #"{"token":\#(JSONText.quoted(token))}"#)
        try flow.perform(1, validate, expecting: "an \"isValid\"") { $0.hasJSONKey("isValid") ? () : nil }
    }
}
