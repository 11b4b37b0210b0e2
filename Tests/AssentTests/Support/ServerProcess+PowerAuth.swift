import Assent
import AssentCrypto
import AssentTesting
import Foundation
import AssentTestSupport

/// PowerAuth helpers for tests against a real `assentd`.
extension ServerProcess {
    /// The tenant's master public key, from the real `assent admin tenant powerauth`.
    func masterPublicKey() throws -> String {
        let json = try Self.json(try ProcessRunner.output(BuiltProduct.path("assent"), [
            "admin", "tenant", "powerauth", "--database", database, "--tenant", tenantID, "--json",
        ]))
        guard let key = json["masterPublicKey"] as? String else { throw TestFailure("no masterPublicKey in \(json)") }
        return key
    }

    /// A track token for `user` allowed to add authenticators.
    func enrolmentToken(_ user: String) async throws -> String {
        let tracked = try await track(user: user, action: "enrol", ["scope": "add:authenticators"])
        guard let token = tracked["token"] as? String else { throw TestFailure("track gave no token: \(tracked)") }
        return token
    }

    /// The backend's `POST /v1/signatures/verify` for a request signed with `header`.
    func verify(method: String = "POST", uriId: String, body: String, header: String?) async throws -> [String: Any] {
        let (status, json) = try await call("POST", "/v1/signatures/verify", authorization: secretAuthorization, body: [
            "method": method, "uriId": uriId, "body": Base64.encode(Array(body.utf8)), "authorization": header ?? "",
        ])
        guard status == 200 else { throw TestFailure("verify answered \(status): \(json)") }
        return json
    }

    /// The activation as the backend sees it.
    func activation(_ id: String) async throws -> [String: Any] {
        let (status, json) = try await call("GET", "/v1/activations/\(id)", authorization: secretAuthorization)
        guard status == 200 else { throw TestFailure("activation answered \(status): \(json)") }
        return json
    }

    /// An SDK for this server's tenant with PowerAuth configured (the master key pinned), on a device of `platform`.
    func powerAuthSDK(
        keyStore: any KeyStore = InMemoryKeyStore(), sensor: SimulatedBiometricAuthenticator = SimulatedBiometricAuthenticator(),
        clock: AssentClock = .system, platform: String = "linux", invalidateBiometricFactorAfterChange: Bool? = true,
        authenticateOnBiometricKeySetup: Bool = true
    ) throws -> Assent {
        Assent(
            tenantID: tenantID, baseURL: apiURL, keyStore: keyStore, transport: URLSessionTransport(), clock: clock,
            device: DeviceInfo(name: "e2e-device", platform: platform), userAuthenticator: sensor,
            powerAuth: PowerAuthConfiguration(
                masterPublicKey: try masterPublicKey(),
                invalidateBiometricFactorAfterChange: invalidateBiometricFactorAfterChange,
                authenticateOnBiometricKeySetup: authenticateOnBiometricKeySetup))
    }
}
