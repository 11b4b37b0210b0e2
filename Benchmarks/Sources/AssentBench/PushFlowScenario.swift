import AssentCrypto

/// One complete push sign-in per flow, as six timed requests: the backend tracks the sign-in, the page starts a push
/// challenge with the track token, the device fetches the pending challenge and approves it with a signature over
/// its id, the page verifies the challenge for an access token, and the backend validates that token.
///
/// Each connection has its own user (`bench-push-<connection>`) and its own P-256 device key, enrolled in
/// ``prepare(_:)``, so a user never has more than one challenge open (the server caps open push challenges per user).
/// The device signs between the `get` and `approve` steps: that signing is in the flow's latency, not in a step's.
///
/// With `--seeded-users N` nothing is enrolled: every flow draws a user of the connection's slice of the users
/// `assent admin seed` made and signs with that user's derived push key (``SeededUsers``).
struct PushFlowScenario: Scenario {
    static let name = "push-flow"
    static let summary = "a push sign-in: track, start, device get + approve (ECDSA P-256), verify, validate"
    static let steps = ["track", "start", "get", "approve", "verify", "validate"]
    static let requiresTenant = true

    private static let pushPath = "/v1/client/user-authenticators/push"

    private let settings: ScenarioSettings
    private let device: Device
    private let seeded: SeededUsers?
    private var counter = 0

    init(settings: ScenarioSettings) {
        guard let tenantID = settings.tenantID else {
            preconditionFailure("BenchConfiguration.validate() requires --tenant for \(Self.name)")
        }
        self.settings = settings
        // Made once per connection, so a retried setup enrols the same key again (re-enrolment is allowed).
        device = Device(tenantID: tenantID)
        seeded = SeededUsers(settings)
    }

    private var userID: String { "bench-push-\(settings.connection)" }

    /// Enrols the connection's device for its user: a track with scope `add:authenticators`, then the push enrolment.
    mutating func prepare(_ connection: HTTPConnection) throws(BenchError) {
        guard seeded == nil else { return }  // seeded users are enrolled already
        let track = try connection.send(
            .post("/v1/users/\(userID)/actions/enrol", authorization: settings.secretAuthorization,
                  json: #"{"scope":"add:authenticators"}"#))
        guard track.isSuccess, let token = track.jsonString(forKey: "token") else {
            throw Self.setupFailure("track with scope add:authenticators", track, expecting: "a \"token\"")
        }
        let body = JSONText.object([
            ("publicKey", JSONText.quoted(device.publicKey)),
            ("deviceName", JSONText.quoted("bench")),
            ("devicePlatform", JSONText.quoted("ios")),
        ])
        let enrol = try connection.send(.post(Self.pushPath, authorization: "Bearer \(token)", json: body))
        guard enrol.isSuccess, enrol.hasJSONKey("userAuthenticatorId") else {
            throw Self.setupFailure("push enrolment", enrol, expecting: "a \"userAuthenticatorId\"")
        }
    }

    mutating func runFlow(_ flow: FlowContext) throws(BenchError) {
        counter += 1
        let (userID, device) = try seeded?.draw(.push, tenantID: device.tenantID) ?? (userID, device)
        let track = HTTPRequest.post(
            "/v1/users/\(userID)/actions/signIn", authorization: settings.secretAuthorization,
            json: #"{"ipAddress":"203.0.113.7","userAgent":"assent-bench","custom":{"n":\#(counter)}}"#)
        let token = try flow.perform(0, track, expecting: "a \"token\"") { $0.jsonString(forKey: "token") }
        let bearer = "Bearer \(token)"

        let start = HTTPRequest.post("/v1/client/challenge/push", authorization: bearer, json: #"{"action":"signIn"}"#)
        let challengeID = try flow.perform(1, start, expecting: "a \"challengeId\"") { $0.jsonString(forKey: "challengeId") }

        do {
            let get = HTTPRequest(
                method: "GET", path: "\(Self.pushPath)/challenge?publicKey=\(device.query)",
                authorization: device.tenantAuthorization)
            try flow.perform(2, get, expecting: "the started \"challengeId\"") {
                $0.jsonString(forKey: "challengeId") == challengeID ? () : nil
            }
            let approve = try answer(challengeID, approved: true, device: device)
            try flow.perform(3, approve, expecting: "\"isVerified\":true") {
                $0.jsonBool(forKey: "isVerified") == true ? () : nil
            }
        } catch {
            // Close the challenge so failures do not pile up open challenges against the per-user cap.
            if let deny = try? answer(challengeID, approved: false, device: device) { _ = try? flow.connection.send(deny) }
            throw error
        }

        let verify = HTTPRequest.post(
            "/v1/client/verify/push", authorization: bearer, json: #"{"challengeId":\#(JSONText.quoted(challengeID))}"#)
        let accessToken = try flow.perform(4, verify, expecting: "\"isVerified\":true and an \"accessToken\"") {
            $0.jsonBool(forKey: "isVerified") == true ? $0.jsonString(forKey: "accessToken") : nil
        }

        let validate = HTTPRequest.post(
            "/v1/validate", authorization: settings.secretAuthorization,
            json: #"{"token":\#(JSONText.quoted(accessToken))}"#)
        try flow.perform(5, validate, expecting: "\"isValid\":true") { $0.jsonBool(forKey: "isValid") == true ? () : nil }
    }

    /// The device's signed answer to `challengeID`.
    private func answer(_ challengeID: String, approved: Bool, device: Device) throws(BenchError) -> HTTPRequest {
        let body = JSONText.object([
            ("challengeId", JSONText.quoted(challengeID)),
            ("publicKey", JSONText.quoted(device.publicKey)),
            ("approved", approved ? "true" : "false"),
            ("signature", JSONText.quoted(try device.sign(challengeID))),
        ])
        return .post("\(Self.pushPath)/challenge", authorization: device.tenantAuthorization, json: body)
    }

    private static func setupFailure(_ what: String, _ response: HTTPResponse, expecting: String) -> BenchError {
        let status = response.isSuccess ? "HTTP \(response.status) without \(expecting)" : "HTTP \(response.status)"
        return BenchError(
            .setupFailed, label: "setup: \(what) failed",
            reason: "\(name) setup: \(what) answered \(status): \(response.bodySnippet())")
    }
}

extension PushFlowScenario {
    /// A device as the official iOS SDK presents itself: a P-256 key, its SPKI in base64 in bodies and
    /// base64url-without-padding of that text in `?publicKey=`, and the tenant as `Basic base64url(tenantID + ":")`.
    struct Device: Sendable {
        let key: P256.PrivateKey
        /// Base64 of the SPKI DER, as bodies carry it.
        let publicKey: String
        /// Base64url (no padding) of the UTF-8 of ``publicKey``, as `?publicKey=` carries it.
        let query: String
        let tenantAuthorization: String
        let tenantID: String

        init(tenantID: String, key: P256.PrivateKey = P256.PrivateKey()) {
            self.key = key
            self.tenantID = tenantID
            publicKey = Base64.encode(key.publicKey.spkiDER)
            query = Base64.encodeURL(Array(publicKey.utf8))
            tenantAuthorization = "Basic " + Base64.encodeURL(Array((tenantID + ":").utf8))
        }

        /// Base64 of the DER ECDSA-P256-SHA256 signature over the UTF-8 of `message`.
        func sign(_ message: String) throws(BenchError) -> String {
            do {
                return Base64.encode(try key.signature(for: Array(message.utf8)))
            } catch {
                throw BenchError(.setupFailed, label: "signing failed", reason: "ECDSA signing failed: \(error)")
            }
        }
    }
}
