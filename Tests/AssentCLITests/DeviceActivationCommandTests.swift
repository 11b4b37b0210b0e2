import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import AssentTestSupport

/// `assent device activate|status|sign|biometry` as a real process against a real `assentd`.
@Suite(.serialized) struct DeviceActivationCommandTests {
    private struct Home {
        let root: String
        var path: String { (root as NSString).appendingPathComponent("device") }
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("assent-pa-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    private func device(_ home: Home, _ arguments: [String], password: String? = nil) throws -> CLIProcess.Result {
        try CLIProcess.run(
            ["device"] + arguments + ["--home", home.path, "--json"],
            environment: password.map { ["ASSENT_DEVICE_PASSWORD": $0] } ?? [:])
    }

    /// The backend's `POST /v1/signatures/verify`.
    private func verify(_ server: ServerProcess, uriId: String, body: String, header: String) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: server.url + "/v1/signatures/verify")!, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("Basic " + Data("\(server.secretKey):".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "method": "POST", "uriId": uriId, "body": Data(body.utf8).base64EncodedString(), "authorization": header,
        ])
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    @Test(arguments: [
        (["device", "activate", "--help"], "--master-public-key"),
        (["device", "sign", "--help"], "--uri-id"),
        (["device", "biometry", "--help"], "SIMULATED"),
        (["device", "biometry", "simulate", "--help"], "--lockout"),
    ])
    func `help describes the activation commands`(_ arguments: [String], _ mentions: String) throws {
        let result = try CLIProcess.run(arguments)
        #expect(result.status == 0 && result.stdout.contains(mentions))
    }

    @Test func `commands before activation fail with missing_activation or usage`() throws {
        let home = try Home()
        defer { home.remove() }
        let unsigned = try device(home, ["sign", "--uri-id", "/x", "--type", "possession"])
        #expect(unsigned.status == 1 && unsigned.stderr.contains("not enrolled"))
        let badType = try device(home, ["sign", "--uri-id", "/x", "--type", "biometry"])
        #expect(badType.status == 2)
        let badKey = try device(home, ["activate", "--url", "http://127.0.0.1:1", "--tenant", "t", "--token", "x",
                                       "--master-public-key", "bm90LWEta2V5"])
        #expect(badKey.status == 2 && badKey.stderr.contains("master-public-key"))
    }

    @Test func `activate, sign, biometry and status run end to end and the backend verifies the headers`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let home = try Home()
        defer { home.remove() }
        let powerAuth = try CLIProcess.run(["admin", "tenant", "powerauth", "--database", server.database,
                                            "--tenant", server.tenantID, "--json"])
        let masterKey = try #require(try powerAuth.object()["masterPublicKey"] as? String, "\(powerAuth.stderr)")
        let token = try server.trackToken(user: "alice", action: "enrol", ["--scope", "add:authenticators"])

        let activated = try device(home, ["activate", "--url", server.url, "--tenant", server.tenantID, "--token", token,
                                          "--master-public-key", masterKey], password: "1234")
        #expect(activated.status == 0, "\(activated.stderr)\n\(server.log)")
        let activation = try activated.object()
        #expect(activation["activationStatus"] as? String == "ACTIVE")
        let fingerprint = activation["activationFingerprint"] as? String ?? ""
        #expect(fingerprint.count == 8)

        let body = #"{"amount":100}"#
        let signed = try device(home, ["sign", "--uri-id", "/payments", "--body", body], password: "1234")
        #expect(signed.status == 0, "\(signed.stderr)")
        let header = try #require(try signed.object()["value"] as? String)
        #expect(header.contains("pa_signature_type=\"possession_knowledge\""))
        #expect(try await verify(server, uriId: "/payments", body: body, header: header)["valid"] as? Bool == true)

        // Plain text output is the header value alone, for scripts.
        let plain = try CLIProcess.run(["device", "sign", "--home", home.path, "--uri-id", "/p", "--type", "possession"])
        #expect(plain.status == 0 && plain.stdout.hasPrefix("PowerAuth pa_version=\"3.3\""))

        // Biometry: a wrong password is refused and counted; the right one adds the factor.
        let biometry = try device(home, ["biometry", "status"]).object()
        #expect(biometry["isBiometricFactorConfigured"] as? Bool == false && biometry["authenticator"] as? String == "simulated")
        let wrong = try device(home, ["biometry", "add"], password: "0000")
        let wrongCode = try wrong.object()["errorCode"] as? String
        #expect(wrong.status == 1 && wrongCode == "invalid_signature", "\(wrong.stdout)")
        let status = try device(home, ["status"]).object()
        #expect(status["failCount"] as? Int == 1 && status["state"] as? String == "ACTIVE", "\(status)")
        #expect(try device(home, ["biometry", "add"], password: "1234").status == 0)
        let bio = try device(home, ["sign", "--uri-id", "/payments", "--body", body, "--type", "possession_biometry"])
        let bioHeader = try #require(try bio.object()["value"] as? String, "\(bio.stderr)")
        let verdict = try await verify(server, uriId: "/payments", body: body, header: bioHeader)
        #expect(verdict["valid"] as? Bool == true && verdict["signatureType"] as? String == "possession_biometry")

        // The simulated sensor fails on request, and an enrolment change invalidates the factor (the default).
        #expect(try device(home, ["biometry", "simulate", "--next", "fail"]).status == 0)
        let failed = try device(home, ["sign", "--uri-id", "/p", "--type", "possession_biometry"])
        let failedCode = try failed.object()["errorCode"] as? String
        #expect(failed.status == 1 && failedCode == "user_authentication_failed")
        #expect(try device(home, ["biometry", "simulate", "--enrol", "finger-2"]).status == 0)
        let invalidated = try device(home, ["sign", "--uri-id", "/p", "--type", "possession_biometry"])
        #expect((try invalidated.object()["errorCode"] as? String) == "biometry_key_invalidated")
        #expect(try device(home, ["biometry", "status"]).object()["isBiometricFactorConfigured"] as? Bool == false)
        #expect(try device(home, ["biometry", "remove"]).object()["removed"] as? Bool == false)

        let final = try device(home, ["status"]).object()
        #expect(final["state"] as? String == "ACTIVE" && (final["activationId"] as? String) == activation["activationId"] as? String)
    }
}
