import Assent
import AssentTesting
import AssentWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import AssentTestSupport

/// The SDK against a real `assentd`: the whole anonymous QR sign-in — the backend tracks an enrolment, the device
/// enrols its QR key, a kiosk page opens a challenge with only the tenant ID, the device claims it from the scanned
/// payload and sees who is asking, approves, the page's poll gets an access token and the backend validates it.
@Suite(.serialized) struct QREndToEndTests {
    private static let kioskAgent = "KioskBrowser/1.0 (Assent E2E)"

    private func sdk(_ server: ServerProcess, keyStore: any KeyStore = InMemoryKeyStore()) -> Assent {
        Assent(tenantID: server.tenantID, baseURL: server.apiURL, keyStore: keyStore, transport: URLSessionTransport(),
               clock: .system, device: DeviceInfo(name: "e2e-phone", platform: "linux"))
    }

    /// Enrols a QR credential for `user` with a token from tracking with scope `add:authenticators`.
    private func enrol(_ server: ServerProcess, user: String, keyStore: any KeyStore = InMemoryKeyStore()) async throws
        -> (Assent, AppCredential)
    {
        let tracked = try await server.track(user: user, action: "enrol", ["scope": "add:authenticators"])
        let assent = sdk(server, keyStore: keyStore)
        let added = await assent.qr.addCredential(token: try #require(tracked["token"] as? String))
        let credential = try #require(added.data, "\(added.error ?? "") \(added.errorCode ?? "")\n\(server.log)")
        return (assent, credential)
    }

    /// `Basic base64(tenantID:)`: what an anonymous page authenticates with.
    private func tenantBasic(_ server: ServerProcess) -> String {
        "Basic " + Data("\(server.tenantID):".utf8).base64EncodedString()
    }

    /// One request as the kiosk page's browser makes it (its own user agent).
    private func page(_ server: ServerProcess, _ path: String, _ body: [String: Any]) async throws
        -> (status: Int, json: [String: Any])
    {
        var request = URLRequest(url: URL(string: server.url + path)!, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue(tenantBasic(server), forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(Self.kioskAgent, forHTTPHeaderField: "User-Agent")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0,
                (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// The page opens an anonymous challenge; answers it (with `qrPayload` and `deviceCode`).
    private func start(_ server: ServerProcess, custom: [String: Any]? = nil) async throws -> [String: Any] {
        var body: [String: Any] = ["action": "signIn"]
        body["custom"] = custom
        let started = try await page(server, "/v1/client/challenge/qr-code", body)
        #expect(started.status == 200, "\(started.json)")
        return started.json
    }

    /// The page's poll.
    private func poll(_ server: ServerProcess, _ challenge: [String: Any]) async throws -> [String: Any] {
        let polled = try await page(server, "/v1/client/verify/qr-code", [
            "challengeId": challenge["challengeId"] as Any, "deviceCode": challenge["deviceCode"] as Any,
        ])
        #expect(polled.status == 200, "\(polled.json)")
        return polled.json
    }

    @Test func `an anonymous QR sign-in runs end to end and the backend validates the access token`() async throws {
        let server = try ServerProcess(settings: [
            "--public-custom-keys", "terminal", "--public-user-custom-keys", "tier", "--require-bound-signature", "on",
        ])
        defer { server.stop() }
        let userUpdate = try await server.call("PATCH", "/v1/users/alice", authorization: server.secretAuthorization,
                                               body: ["custom": ["tier": "gold", "ssn": "hidden"]])
        #expect(userUpdate.status == 200, "\(userUpdate.json)")

        let (assent, credential) = try await enrol(server, user: "alice")
        #expect(credential.userId == "alice")
        let fetched = await assent.qr.getCredential()
        #expect(fetched.data?.credentialId == credential.credentialId, "\(fetched.error ?? "")")
        #expect(await assent.push.getCredential().errorCode == "credential_not_found", "push is not enrolled")

        // The kiosk opens a challenge knowing no user; the QR code carries the payload.
        let challenge = try await start(server, custom: ["terminal": "Lobby 2", "secret": "not for devices"])
        let challengeId = try #require(challenge["challengeId"] as? String)
        let payload = try #require(challenge["qrPayload"] as? String)
        #expect(payload == "assent://qr?tenant=\(server.tenantID)&challenge=\(challengeId)")
        #expect(challenge["deviceCode"] is String)
        let unclaimed = try await poll(server, challenge)
        #expect(unclaimed["isClaimed"] as? Bool == false && unclaimed["isVerified"] as? Bool == false)

        // The phone scans it, claims it and shows who is asking.
        let claimed = await assent.qr.claimChallenge(payload: payload)
        let claim = try #require(claimed.data, "\(claimed.error ?? "") \(claimed.errorCode ?? "")\n\(server.log)")
        #expect(claim.success && claim.challengeId == challengeId && claim.actionCode == "signIn")
        #expect(claim.ipAddress == "127.0.0.1" && claim.userAgent == Self.kioskAgent)
        #expect(claim.custom == nil, "an anonymous page's custom data is never shown as the tenant's")
        #expect(claim.user == ChallengeUser(custom: ["tier": .string("gold")]))
        #expect(claim.idempotencyKey?.isEmpty == false)
        #expect(claim.location == nil, "an anonymous challenge has no tracked location")
        let claimedState = try await poll(server, challenge)
        #expect(claimedState["isClaimed"] as? Bool == true && claimedState["isConsumed"] as? Bool == false)

        // Someone else's phone is too late: the claim is taken, and it may not answer either.
        let (bob, _) = try await enrol(server, user: "bob")
        let late = await bob.qr.claimChallenge(challengeId: challengeId)
        #expect(late.data == nil && late.errorCode == "challenge_closed", "\(late.error ?? "")")
        #expect(await bob.qr.updateChallenge(challengeId: challengeId, approved: true).errorCode == "forbidden")

        // Approve (the tenant requires the bound signature, which the SDK always sends).
        let approved = await assent.qr.updateChallenge(challengeId: challengeId, approved: true)
        #expect(approved.data == true, "\(approved.error ?? "") \(approved.errorCode ?? "")")

        let verified = try await poll(server, challenge)
        #expect(verified["isVerified"] as? Bool == true && verified["isConsumed"] as? Bool == true)
        let accessToken = try #require(verified["accessToken"] as? String)
        let validated = try await server.call("POST", "/v1/validate", authorization: server.secretAuthorization,
                                              body: ["token": accessToken])
        #expect(validated.json["isValid"] as? Bool == true, "\(validated.json)")
        #expect(validated.json["verificationMethod"] as? String == "DEVICE")
        #expect(validated.json["userId"] as? String == "alice")
        #expect(validated.json["actionCode"] as? String == "signIn")
        #expect(validated.json["idempotencyKey"] as? String == claim.idempotencyKey)

        // Answered once: a second answer and a second claim are refused.
        #expect(await assent.qr.updateChallenge(challengeId: challengeId, approved: true).isError)
        #expect(await assent.qr.claimChallenge(challengeId: challengeId).errorCode == "challenge_closed")
    }

    @Test func `a declined QR challenge reaches the page without a token, and foreign codes are refused`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-e2e-keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (assent, _) = try await enrol(
            server, user: "carol", keyStore: FileKeyStore(directory: directory, passphrase: "e2e", iterations: 1_000))

        let challenge = try await start(server)
        let challengeId = try #require(challenge["challengeId"] as? String)
        // Answering before claiming is refused: only the claiming device answers.
        #expect(await assent.qr.updateChallenge(challengeId: challengeId, approved: true).errorCode == "forbidden")

        // A page of another tenant, or text that is no payload, is refused before anything is sent.
        let foreign = await assent.qr.claimChallenge(payload: "assent://qr?tenant=someone-else&challenge=\(challengeId)")
        #expect(foreign.errorCode == "tenant_mismatch")
        #expect(await assent.qr.claimChallenge(payload: "https://evil.example/\(challengeId)").errorCode == "invalid_qr_payload")

        // A bare challenge ID is understood too.
        let claimed = await assent.qr.claimChallenge(payload: challengeId)
        #expect(claimed.data?.actionCode == "signIn", "\(claimed.error ?? "")")
        let declined = await assent.qr.updateChallenge(challengeId: challengeId, approved: false)
        #expect(declined.data == true, "\(declined.error ?? "")")

        let verdict = try await poll(server, challenge)
        #expect(verdict["isClaimed"] as? Bool == true && verdict["isConsumed"] as? Bool == true)
        #expect(verdict["isVerified"] as? Bool == false && verdict["accessToken"] == nil)

        // Removal is seen by the server; afterwards the device has no QR credential.
        let removed = await assent.qr.removeCredential()
        #expect(removed.data == true && !removed.isError, "\(removed.error ?? "")")
        #expect(await assent.qr.getCredential().errorCode == "credential_not_found")
        #expect(await assent.qr.claimChallenge(payload: challengeId).errorCode == "credential_not_found")
    }

    @Test func `a claim shows the location the backend tracked with the action, and null when it tracked none`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let (assent, _) = try await enrol(server, user: "frank")
        for location in ["Wellington, New Zealand", nil] {
            var attributes: [String: Any] = ["ipAddress": "203.0.113.9"]
            attributes["location"] = location
            let tracked = try await server.track(user: "frank", action: "signIn", attributes)
            let token = try #require(tracked["token"] as? String)
            let started = try await server.call(
                "POST", "/v1/client/challenge/qr-code", authorization: "Bearer \(token)", body: [:])
            let challengeId = try #require(started.json["challengeId"] as? String, "\(started.json)")
            let claimed = await assent.qr.claimChallenge(challengeId: challengeId)
            let claim = try #require(claimed.data, "\(claimed.error ?? "")")
            #expect(claim.location == location && claim.ipAddress == "203.0.113.9")
        }
    }

    @Test func `a QR credential is never used until its first claim, which stamps lastAuthenticatedAt`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let (assent, credential) = try await enrol(server, user: "erin")
        #expect(credential.lastAuthenticatedAt == nil)
        let fresh = try #require(await assent.qr.getCredential().data)
        #expect(fresh.lastAuthenticatedAt == nil)

        let challenge = try await start(server)
        let claimed = await assent.qr.claimChallenge(challengeId: try #require(challenge["challengeId"] as? String))
        #expect(claimed.data?.success == true, "\(claimed.error ?? "")")
        let used = try #require(await assent.qr.getCredential().data)
        let stamped = try #require(used.lastAuthenticatedAt, "the claim is the credential's first use")
        #expect(stamped >= used.createdAt)
    }

    @Test func `a QR credential deleted on the server is invalid_credential on the device`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let (assent, credential) = try await enrol(server, user: "dave")
        let deleted = try await server.call("DELETE", "/v1/users/dave/authenticators/\(credential.credentialId)",
                                            authorization: server.secretAuthorization)
        #expect(deleted.status == 200, "\(deleted.json)")
        #expect(await assent.qr.getCredential().errorCode == "invalid_credential")
        let challenge = try await start(server)
        let claim = await assent.qr.claimChallenge(challengeId: try #require(challenge["challengeId"] as? String))
        #expect(claim.errorCode == "invalid_credential")
        let removed = await assent.qr.removeCredential()
        #expect(removed.data == false && removed.errorCode == "invalid_credential")
        #expect(await assent.qr.getCredential().errorCode == "credential_not_found")
    }
}
