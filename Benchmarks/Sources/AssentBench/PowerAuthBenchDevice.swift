import AssentCrypto
import Foundation

/// A PowerAuth device for the signature scenarios: activates once per connection (track with the
/// `add:authenticators` scope, then `POST /v1/client/activations`), then signs requests with its keys and counter.
struct PowerAuthBenchDevice {
    /// The logical URI and body every benchmark request signs (a small payment-like JSON body).
    static let uriID = "/bench/payments"
    static let body = Array(#"{"amount":"100.00","currency":"EUR","to":"DE89370400440532013000"}"#.utf8)

    let activationID: String
    let applicationKey: String
    let applicationSecret: String
    let keys: PowerAuthDerivedKeys
    var counterData: [UInt8]

    /// Activates a fresh device key for the connection's own user.
    static func activate(_ connection: HTTPConnection, settings: ScenarioSettings, scenario: String) throws(BenchError) -> PowerAuthBenchDevice {
        func setupFailure(_ step: String, _ response: HTTPResponse) -> BenchError {
            BenchError(.setupFailed, label: "setup: \(step) failed",
                       reason: "\(scenario) setup: \(step) answered HTTP \(response.status): \(response.bodySnippet())")
        }
        let user = "bench-powerauth-\(settings.connection)-\(UInt32.random(in: 0...UInt32.max))"
        let track = try connection.send(
            .post("/v1/users/\(user)/actions/activate", authorization: settings.secretAuthorization, json: #"{"scope":"add:authenticators"}"#))
        guard track.isSuccess, let token = track.jsonString(forKey: "token") else { throw setupFailure("track", track) }
        let deviceKey = P256.PrivateKey()
        let activation = try connection.send(
            .post("/v1/client/activations", authorization: "Bearer \(token)",
                  json: #"{"devicePublicKey":\#(JSONText.quoted(Base64.encode(deviceKey.publicKey.x962Uncompressed)))}"#))
        guard activation.isSuccess, let id = activation.jsonString(forKey: "activationId"),
              let serverKeyText = activation.jsonString(forKey: "serverPublicKey"), let serverKeyBytes = Base64.decode(serverKeyText),
              let counterText = activation.jsonString(forKey: "ctrData"), let counterData = Base64.decode(counterText),
              let applicationKey = activation.jsonString(forKey: "applicationKey"),
              let applicationSecret = activation.jsonString(forKey: "applicationSecret")
        else { throw setupFailure("activation", activation) }
        do {
            let serverKey = try P256.PublicKey(x962: serverKeyBytes)
            let keys = try PowerAuthDerivedKeys(masterSecret: PowerAuth.masterSecret(privateKey: deviceKey, publicKey: serverKey))
            return PowerAuthBenchDevice(activationID: id, applicationKey: applicationKey, applicationSecret: applicationSecret,
                                        keys: keys, counterData: counterData)
        } catch {
            throw BenchError(.setupFailed, label: "setup: key agreement failed", reason: "\(scenario) setup: \(error)")
        }
    }

    /// The `POST /v1/signatures/verify` request for a `possession_knowledge` signature made `skip` counter values
    /// ahead of the server (so the server's look-ahead walks `skip + 1` values); advances the counter past it.
    mutating func verifyRequest(settings: ScenarioSettings, skip: Int) -> HTTPRequest {
        counterData = PowerAuthCounter.advance(counterData, by: skip)
        let nonce = SecureRandom.bytes(16)
        let data = PowerAuthRequestData.normalized(
            method: "POST", uriID: Self.uriID, nonce: nonce, body: Self.body, applicationSecret: applicationSecret)
        // Keys are present and 16 bytes, CTR_DATA is 16 bytes: computing cannot fail.
        let signature = (try? PowerAuthSignature.compute(
            type: .possessionKnowledge, keys: keys.signatureKeys, counterData: counterData, data: data)) ?? ""
        counterData = PowerAuthCounter.next(counterData)
        let header = "PowerAuth pa_version=\"3.3\", pa_activation_id=\"\(activationID)\", pa_application_key=\"\(applicationKey)\", "
            + "pa_nonce=\"\(Base64.encode(nonce))\", pa_signature_type=\"possession_knowledge\", pa_signature=\"\(signature)\""
        let json = #"{"method":"POST","uriId":\#(JSONText.quoted(Self.uriID)),"body":\#(JSONText.quoted(Base64.encode(Self.body))),"#
            + #""authorization":\#(JSONText.quoted(header))}"#
        return .post("/v1/signatures/verify", authorization: settings.secretAuthorization, json: json)
    }
}
