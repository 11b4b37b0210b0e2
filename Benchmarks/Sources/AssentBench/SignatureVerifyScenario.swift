/// One PowerAuth activation per connection, then `POST /v1/signatures/verify` (secret key) with a fresh
/// `possession_knowledge` signature each time, made at the server's current counter value (look-ahead distance 0).
/// Every answer must be `"valid": true`.
struct SignatureVerifyScenario: Scenario {
    static let name = "signature-verify"
    static let summary = "POST /v1/signatures/verify (secret key), possession_knowledge, one activation per connection, distance 0"
    static let steps = ["verify"]

    private let settings: ScenarioSettings
    private var device: PowerAuthBenchDevice?

    init(settings: ScenarioSettings) {
        self.settings = settings
    }

    mutating func prepare(_ connection: HTTPConnection) throws(BenchError) {
        device = try PowerAuthBenchDevice.activate(connection, settings: settings, scenario: Self.name)
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        guard device != nil else { preconditionFailure("prepare(_:) runs before runFlow(_:)") }
        let request = device!.verifyRequest(settings: settings, skip: 0)
        try flow.perform(0, request, expecting: "\"valid\": true") { $0.jsonBool(forKey: "valid") == true ? () : nil }
    }
}

/// As ``SignatureVerifyScenario``, but the device skips 19 counter values before each signature (as if 19 signed
/// requests were lost), so the server walks its whole look-ahead window of 20 values for every verification: the
/// worst case that still verifies.
struct SignatureVerifyLookAheadScenario: Scenario {
    static let name = "signature-verify-lookahead"
    static let summary = "as signature-verify, but signed 19 counter values ahead: the server walks the whole window of 20"
    static let steps = ["verify"]

    private let settings: ScenarioSettings
    private var device: PowerAuthBenchDevice?

    init(settings: ScenarioSettings) {
        self.settings = settings
    }

    mutating func prepare(_ connection: HTTPConnection) throws(BenchError) {
        device = try PowerAuthBenchDevice.activate(connection, settings: settings, scenario: Self.name)
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        guard device != nil else { preconditionFailure("prepare(_:) runs before runFlow(_:)") }
        let request = device!.verifyRequest(settings: settings, skip: 19)
        try flow.perform(0, request, expecting: "\"valid\": true") { $0.jsonBool(forKey: "valid") == true ? () : nil }
    }
}
