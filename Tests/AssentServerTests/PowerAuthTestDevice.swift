import AssentCrypto
import AssentWire
@testable import AssentHTTPClient
@testable import AssentServer
@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A PowerAuth device built from AssentCrypto alone: activates against a live server (checking the activation
/// signature with the tenant's master public key), keeps its keys and counter, and signs requests.
final class PowerAuthTestDevice: @unchecked Sendable {
    let deviceKey = P256.PrivateKey()
    private(set) var activationID = ""
    private(set) var keys: PowerAuthDerivedKeys!
    private(set) var applicationKey = ""
    private(set) var applicationSecret = ""
    /// The counter value the next signature uses.
    var counterData: [UInt8] = []

    /// Activates for `user` with a fresh enrolment token; checks the answer's signature and fingerprint.
    static func activate(_ server: LiveServer, user: String) async throws -> PowerAuthTestDevice {
        let device = PowerAuthTestDevice()
        let (token, _) = try await server.track(user, "activate", scope: "add:authenticators")
        let devicePublicKey = Base64.encode(device.deviceKey.publicKey.x962Uncompressed)
        let reply = try await server.request(
            "POST", "/v1/client/activations", json: ["devicePublicKey": devicePublicKey, "activationName": "test phone"],
            headers: ["Authorization": "Bearer \(token)"])
        try #require(reply.status == 200, "activation answered \(reply.status) \(reply.json)")
        let answer = try JSONDecoder().decode(
            CreateActivationResponse.self, from: JSONSerialization.data(withJSONObject: reply.json))
        let application = try await server.application.activations.application(tenantID: server.tenant.tenant.id)
        let master = try P256.PublicKey(x962: application.masterPublicKey)
        let message = PowerAuthActivationMessage.signedMessage(
            activationId: answer.activationId, devicePublicKey: devicePublicKey, serverPublicKey: answer.serverPublicKey,
            ctrData: answer.ctrData, applicationKey: answer.applicationKey, applicationSecret: answer.applicationSecret)
        #expect(master.isValidSignature(try #require(Base64.decode(answer.activationSignature)), for: message))
        let serverKey = try P256.PublicKey(x962: try #require(Base64.decode(answer.serverPublicKey)))
        #expect(answer.activationFingerprint == PowerAuthFingerprint.compute(
            devicePublicKey: device.deviceKey.publicKey, activationID: answer.activationId, serverPublicKey: serverKey))
        device.activationID = answer.activationId
        device.keys = try PowerAuthDerivedKeys(masterSecret: PowerAuth.masterSecret(privateKey: device.deviceKey, publicKey: serverKey))
        device.applicationKey = answer.applicationKey
        device.applicationSecret = answer.applicationSecret
        device.counterData = try #require(Base64.decode(answer.ctrData))
        return device
    }

    /// The header for a request, advancing the counter (as a real device does, whatever the outcome).
    /// `knowledgeKey` replaces the real one (what a wrong PIN decrypts to).
    func header(
        method: String = "POST", uriID: String, body: [UInt8], type: PowerAuthSignatureType,
        knowledgeKey: [UInt8]? = nil, advance: Bool = true
    ) throws -> String {
        let nonce = SecureRandom.bytes(16)
        let data = PowerAuthRequestData.normalized(
            method: method, uriID: uriID, nonce: nonce, body: body, applicationSecret: applicationSecret)
        let signatureKeys = PowerAuthSignatureKeys(
            possession: keys.possession, knowledge: knowledgeKey ?? keys.knowledge, biometry: keys.biometry)
        let signature = try PowerAuthSignature.compute(type: type, keys: signatureKeys, counterData: counterData, data: data)
        if advance { counterData = PowerAuthCounter.next(counterData) }
        return PowerAuthAuthorizationHeader(
            activationID: activationID, applicationKey: applicationKey, nonce: Base64.encode(nonce), signatureType: type,
            signature: signature
        ).headerValue
    }

    /// A wrong knowledge key, as a wrong PIN gives.
    static let wrongKnowledgeKey = [UInt8](repeating: 0x42, count: 16)
}

extension LiveServer {
    /// Asks the backend endpoint whether `header` signs (`method`, `uriID`, `body`).
    func verifySignature(_ header: String, method: String = "POST", uriID: String, body: [UInt8]) async throws -> Reply {
        try await request(
            "POST", "/v1/signatures/verify",
            json: ["method": method, "uriId": uriID, "body": Base64.encode(body), "authorization": header], headers: secretAuth)
    }

    /// A request whose body is sent byte for byte as given (so a signature over it stays valid).
    func requestRaw(_ method: String, _ path: String, body: [UInt8], headers: [String: String]) async throws -> Reply {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Reply(status: (response as! HTTPURLResponse).statusCode, json: object)
    }
}
