/// One track per connection to get a token, then `POST /v1/validate` with it in a
/// loop. Repeated validations may answer `isValid: false`; any 200 with an
/// `isValid` key counts as success.
struct ValidateScenario: Scenario {
    static let name = "validate"
    static let summary = "POST /v1/validate (secret key) with a token from one track per connection"
    static let steps = ["validate"]

    private let settings: ScenarioSettings
    private var request: HTTPRequest?

    init(settings: ScenarioSettings) {
        self.settings = settings
    }

    mutating func prepare(_ connection: HTTPConnection) throws(BenchError) {
        let response = try connection.send(TrackScenario.request(settings: settings, number: 0))
        guard response.isSuccess, let token = response.jsonString(forKey: "token") else {
            let status = response.isSuccess ? "HTTP \(response.status) without a \"token\"" : "HTTP \(response.status)"
            throw BenchError(
                .setupFailed, label: "setup: track failed",
                reason: "validate setup: track answered \(status): \(response.bodySnippet())")
        }
        request = .post("/v1/validate", authorization: settings.secretAuthorization, json: #"{"token":\#(JSONText.quoted(token))}"#)
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        guard let request else { preconditionFailure("prepare(_:) runs before runFlow(_:)") }
        try flow.perform(0, request, expecting: "an \"isValid\"") { $0.hasJSONKey("isValid") ? () : nil }
    }
}
