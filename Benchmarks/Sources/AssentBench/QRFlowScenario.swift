import AssentCrypto

/// One complete anonymous QR sign-in per flow, as five timed requests: the page opens a QR challenge with the
/// tenant ID, the device claims it (signed over the challenge id), approves it (signed again), the page polls verify
/// with its device code for the access token, and the backend validates that token.
///
/// Each connection has its own user (`bench-qr-<connection>`) and device key, enrolled as a QR credential in
/// ``prepare(_:)``. Signing happens between steps: it is in the flow's latency, not in a step's.
///
/// With `--seeded-users N` nothing is enrolled: every flow signs with the derived QR key of a user drawn from the
/// connection's slice of the users `assent admin seed --qr` made (``SeededUsers``).
struct QRFlowScenario: Scenario {
    static let name = "qr-flow"
    static let summary = "a QR sign-in: page start, device claim + approve (ECDSA P-256), page verify, validate"
    static let steps = ["start", "claim", "approve", "verify", "validate"]
    static let requiresTenant = true

    private static let qrPath = "/v1/client/user-authenticators/qr-code"

    private let settings: ScenarioSettings
    private let device: PushFlowScenario.Device
    private let seeded: SeededUsers?

    init(settings: ScenarioSettings) {
        guard let tenantID = settings.tenantID else {
            preconditionFailure("BenchConfiguration.validate() requires --tenant for \(Self.name)")
        }
        self.settings = settings
        device = PushFlowScenario.Device(tenantID: tenantID)
        seeded = SeededUsers(settings)
    }

    private var userID: String { "bench-qr-\(settings.connection)" }

    mutating func prepare(_ connection: HTTPConnection) throws(BenchError) {
        guard seeded == nil else { return }  // seeded users are enrolled already
        let track = try connection.send(
            .post("/v1/users/\(userID)/actions/enrol", authorization: settings.secretAuthorization,
                  json: #"{"scope":"add:authenticators"}"#))
        guard track.isSuccess, let token = track.jsonString(forKey: "token") else {
            throw Self.setupFailure("track with scope add:authenticators", track)
        }
        let body = JSONText.object([
            ("publicKey", JSONText.quoted(device.publicKey)), ("deviceName", JSONText.quoted("bench")),
            ("devicePlatform", JSONText.quoted("ios")),
        ])
        let enrol = try connection.send(.post(Self.qrPath, authorization: "Bearer \(token)", json: body))
        guard enrol.isSuccess, enrol.hasJSONKey("userAuthenticatorId") else {
            throw Self.setupFailure("QR enrolment", enrol)
        }
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        let device = try seeded?.draw(.qrCode, tenantID: device.tenantID).device ?? device
        let start = HTTPRequest.post(
            "/v1/client/challenge/qr-code", authorization: device.tenantAuthorization, json: #"{"action":"signIn"}"#)
        let (challengeID, deviceCode) = try flow.perform(0, start, expecting: "a \"challengeId\" and \"deviceCode\"") {
            response -> (String, String)? in
            guard let id = response.jsonString(forKey: "challengeId"), let code = response.jsonString(forKey: "deviceCode")
            else { return nil }
            return (id, code)
        }
        let signature = JSONText.quoted(try device.sign(challengeID))
        let claim = HTTPRequest.post(
            "\(Self.qrPath)/challenge/claim", authorization: device.tenantAuthorization,
            json: JSONText.object([
                ("challengeId", JSONText.quoted(challengeID)), ("publicKey", JSONText.quoted(device.publicKey)),
                ("signature", signature),
            ]))
        try flow.perform(1, claim, expecting: "\"success\":true") { $0.jsonBool(forKey: "success") == true ? () : nil }
        let approve = HTTPRequest.post(
            "\(Self.qrPath)/challenge", authorization: device.tenantAuthorization,
            json: JSONText.object([
                ("challengeId", JSONText.quoted(challengeID)), ("publicKey", JSONText.quoted(device.publicKey)),
                ("approved", "true"), ("signature", JSONText.quoted(try device.sign(challengeID))),
            ]))
        try flow.perform(2, approve, expecting: "\"isVerified\":true") { $0.jsonBool(forKey: "isVerified") == true ? () : nil }
        let verify = HTTPRequest.post(
            "/v1/client/verify/qr-code", authorization: device.tenantAuthorization,
            json: JSONText.object([("challengeId", JSONText.quoted(challengeID)), ("deviceCode", JSONText.quoted(deviceCode))]))
        let accessToken = try flow.perform(3, verify, expecting: "\"isVerified\":true and an \"accessToken\"") {
            $0.jsonBool(forKey: "isVerified") == true ? $0.jsonString(forKey: "accessToken") : nil
        }
        let validate = HTTPRequest.post(
            "/v1/validate", authorization: settings.secretAuthorization,
            json: #"{"token":\#(JSONText.quoted(accessToken))}"#)
        try flow.perform(4, validate, expecting: "\"isValid\":true") { $0.jsonBool(forKey: "isValid") == true ? () : nil }
    }

    private static func setupFailure(_ what: String, _ response: HTTPResponse) -> BenchError {
        BenchError(
            .setupFailed, label: "setup: \(what) failed",
            reason: "\(name) setup: \(what) answered HTTP \(response.status): \(response.bodySnippet())")
    }
}
