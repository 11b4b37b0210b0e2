import Assent
import AssentTesting
import AssentWire
import Foundation
import Testing
import AssentTestSupport

/// The SDK against a real `assentd` (started from the build directory on a free loopback port): the whole push
/// sign-in — backend track, enrolment, the page starting a challenge, the device seeing its context and approving
/// it, the page getting an access token, the backend validating it.
@Suite(.serialized) struct PushEndToEndTests {
    private func sdk(_ server: ServerProcess, keyStore: any KeyStore = InMemoryKeyStore()) -> Assent {
        Assent(tenantID: server.tenantID, baseURL: server.apiURL, keyStore: keyStore, transport: URLSessionTransport(),
               clock: .system, device: DeviceInfo(name: "e2e-device", platform: "linux"))
    }

    /// Tracks `action` for alice and starts a push challenge for it as the initiating page would.
    private func startPush(_ server: ServerProcess, action: String = "signIn") async throws
        -> (token: String, challengeId: String, code: String?)
    {
        let tracked = try await server.track(user: "alice", action: action, [
            "ipAddress": "203.0.113.7", "userAgent": "Mozilla/5.0 (X11; Linux x86_64) E2E", "deviceId": "browser-1",
            "custom": ["amount": 120, "internalNote": "not for devices"],
        ])
        let token = try #require(tracked["token"] as? String)
        let started = try await server.call("POST", "/v1/client/challenge/push", authorization: "Bearer \(token)",
                                            body: ["action": action])
        #expect(started.status == 200, "\(started.json)")
        let challengeId = try #require(started.json["challengeId"] as? String)
        return (token, challengeId, started.json["verificationCode"] as? String)
    }

    @Test func `a push sign-in runs end to end and the backend validates the access token`() async throws {
        let server = try ServerProcess(settings: [
            "--number-matching", "on", "--require-bound-signature", "on", "--public-custom-keys", "amount",
            "--public-user-custom-keys", "tier", "--push-credential-lifetime", "86400",
        ])
        defer { server.stop() }
        let userUpdate = try await server.call("PATCH", "/v1/users/alice", authorization: server.secretAuthorization,
                                               body: ["custom": ["tier": "gold", "ssn": "hidden"]])
        #expect(userUpdate.status == 200, "\(userUpdate.json)")

        // Enrol with a token from track (scope add:authenticators), kept in the token cache.
        let enrolment = try await server.track(user: "alice", action: "enrol", ["scope": "add:authenticators"])
        let assent = sdk(server)
        assent.setToken(try #require(enrolment["token"] as? String))
        let added = await assent.push.addCredential(pushToken: "fcm-token-1")
        let credential = try #require(added.data, "\(added.error ?? "") \(added.errorCode ?? "")\n\(server.log)")
        #expect(credential.userId == "alice" && credential.expiresAt != nil)

        let fetched = await assent.push.getCredential()
        #expect(fetched.data?.credentialId == credential.credentialId, "\(fetched.error ?? "")")

        let updated = await assent.push.updateCredential(pushToken: "fcm-token-2", resetExpiry: true)
        #expect(updated.data?.userAuthenticatorId == credential.credentialId, "\(updated.error ?? "")")
        #expect(updated.data?.pushToken == "fcm-token-2" && updated.data?.expiresAt != nil)

        let nothing = await assent.push.getChallenge()
        #expect(!nothing.isError && nothing.data == nil, "\(nothing.error ?? "")")

        // The page starts a challenge; the device sees it with its context and public custom data only.
        let (token, challengeId, code) = try await startPush(server)
        let code3 = try #require(code, "number matching is on, so the page gets a code")
        let pending = await assent.push.getChallenge()
        let challenge = try #require(pending.data, "\(pending.error ?? "")")
        #expect(challenge.challengeId == challengeId && challenge.userId == "alice" && challenge.actionCode == "signIn")
        #expect(challenge.ipAddress == "203.0.113.7" && challenge.userAgent == "Mozilla/5.0 (X11; Linux x86_64) E2E")
        #expect(challenge.deviceId == "browser-1" && challenge.idempotencyKey != nil)
        #expect(challenge.verificationCodeRequired == true)
        #expect(challenge.custom == ["amount": .number(120)])
        #expect(challenge.user == ChallengeUser(custom: ["tier": .string("gold")]))
        let now = Int64(Date().timeIntervalSince1970)
        #expect((now...(now + 700)).contains(challenge.expiresAt ?? 0))

        // Not yet answered.
        let waiting = try await server.call("POST", "/v1/client/verify/push", authorization: "Bearer \(token)",
                                            body: ["challengeId": challengeId])
        #expect(waiting.json["isVerified"] as? Bool == false && waiting.json["isConsumed"] as? Bool == false)

        // A wrong code is refused and declines the challenge (one guess only); a new challenge with the right code
        // is approved.
        let wrong = String((Int(code3)! + 1) % 1000).leftPadded(3)
        let refused = await assent.push.updateChallenge(challengeId: challengeId, approved: true, verificationCode: wrong)
        #expect(refused.isError && refused.data == nil)
        let declined = try await server.call("POST", "/v1/client/verify/push", authorization: "Bearer \(token)",
                                             body: ["challengeId": challengeId])
        #expect(declined.json["isVerified"] as? Bool == false && declined.json["isConsumed"] as? Bool == true)
        let (token2, challengeId2, code2) = try await startPush(server)
        let approved = await assent.push.updateChallenge(challengeId: challengeId2, approved: true, verificationCode: code2)
        #expect(approved.data == true, "\(approved.error ?? "") \(approved.errorCode ?? "")")

        let verified = try await server.call("POST", "/v1/client/verify/push", authorization: "Bearer \(token2)",
                                             body: ["challengeId": challengeId2])
        #expect(verified.status == 200 && verified.json["isVerified"] as? Bool == true)
        let accessToken = try #require(verified.json["accessToken"] as? String)

        let validated = try await server.call("POST", "/v1/validate", authorization: server.secretAuthorization,
                                              body: ["token": accessToken])
        #expect(validated.json["isValid"] as? Bool == true, "\(validated.json)")
        #expect(validated.json["verificationMethod"] as? String == "PUSH")
        #expect(validated.json["userId"] as? String == "alice")

        // Answered once: nothing is pending any more, and a second answer is refused.
        let afterwards = await assent.push.getChallenge()
        #expect(!afterwards.isError && afterwards.data == nil)
        #expect(await assent.push.updateChallenge(challengeId: challengeId2, approved: true, verificationCode: code2).isError)
    }

    @Test func `a denial reaches the page, and removal is seen by the server`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let enrolment = try await server.track(user: "alice", action: "enrol", ["scope": "add:authenticators"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("assent-e2e-keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let assent = sdk(server, keyStore: FileKeyStore(directory: directory, passphrase: "e2e", iterations: 1_000))
        let added = await assent.push.addCredential(token: try #require(enrolment["token"] as? String))
        #expect(added.data?.userId == "alice", "\(added.error ?? "")")

        let (token, challengeId, _) = try await startPush(server)
        let denied = await assent.push.updateChallenge(challengeId: challengeId, approved: false)
        #expect(denied.data == true, "\(denied.error ?? "")")
        let verdict = try await server.call("POST", "/v1/client/verify/push", authorization: "Bearer \(token)",
                                            body: ["challengeId": challengeId])
        #expect(verdict.json["isConsumed"] as? Bool == true && verdict.json["isVerified"] as? Bool == false)
        #expect(verdict.json["accessToken"] == nil)

        let removed = await assent.push.removeCredential()
        #expect(removed.data == true && !removed.isError, "\(removed.error ?? "")")
        #expect(await assent.push.getCredential().errorCode == "credential_not_found")
        let authenticators = try await server.call("GET", "/v1/users/alice/authenticators",
                                                   authorization: server.secretAuthorization)
        #expect(authenticators.status == 200)
    }

    @Test func `a credential deleted on the server is invalid_credential on the device`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let enrolment = try await server.track(user: "bob", action: "enrol", ["scope": "add:authenticators"])
        let assent = sdk(server)
        let added = await assent.push.addCredential(token: try #require(enrolment["token"] as? String))
        let credentialId = try #require(added.data?.credentialId, "\(added.error ?? "")")

        let deleted = try await server.call("DELETE", "/v1/users/bob/authenticators/\(credentialId)",
                                            authorization: server.secretAuthorization)
        #expect(deleted.status == 200, "\(deleted.json)")
        #expect(await assent.push.getCredential().errorCode == "invalid_credential")
        #expect(await assent.push.getChallenge().errorCode == "invalid_credential")
        #expect(await assent.push.updateCredential(resetExpiry: true).errorCode == "invalid_credential")

        // Removing still deletes the local key and reports the server's refusal.
        let removed = await assent.push.removeCredential()
        #expect(removed.data == false && removed.errorCode == "invalid_credential")
        #expect(await assent.push.getCredential().errorCode == "credential_not_found")
    }

    @Test func `a remembered id the server no longer gives is fetched once and the approval goes through`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let phoneStore = InMemoryKeyStore()
        let phone = sdk(server, keyStore: phoneStore)
        let enrolment = try await server.track(user: "alice", action: "enrol", ["scope": "add:authenticators"])
        let added = await phone.push.addCredential(token: try #require(enrolment["token"] as? String))
        let oldID = try #require(added.data?.credentialId, "\(added.error ?? "")")

        // The credential is deleted on the server and the same key enrolled again (by another install of the app
        // holding it, with a store of its own) under a new id; the phone still remembers the old one.
        let deleted = try await server.call("DELETE", "/v1/users/alice/authenticators/\(oldID)",
                                            authorization: server.secretAuthorization)
        #expect(deleted.status == 200, "\(deleted.json)")
        let key = try #require(try await phoneStore.loadKey(named: AssentPush.keyName) as? SoftwareSigningKey)
        let otherStore = InMemoryKeyStore()
        try otherStore.store(key, named: AssentPush.keyName)
        let again = try await server.track(user: "alice", action: "enrol", ["scope": "add:authenticators"])
        let readded = await sdk(server, keyStore: otherStore).push.addCredential(token: try #require(again["token"] as? String))
        let newID = try #require(readded.data?.credentialId, "\(readded.error ?? "")")
        #expect(newID != oldID)

        let (token, challengeId, _) = try await startPush(server)
        let answered = await phone.push.updateChallenge(challengeId: challengeId, approved: true)
        #expect(answered.data == true, "\(answered.error ?? "") \(answered.errorCode ?? "")\n\(server.log)")
        #expect(try await phoneStore.credentialID(forKeyNamed: AssentPush.keyName, publicKey: key.publicKey) == newID)
        let verified = try await server.call("POST", "/v1/client/verify/push", authorization: "Bearer \(token)",
                                             body: ["challengeId": challengeId])
        #expect(verified.json["isVerified"] as? Bool == true, "\(verified.json)")
    }

    @Test func `an expired or wrong enrolment token is the server's error, and a wrong tenant is unauthorized`() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let assent = sdk(server)
        let bad = await assent.push.addCredential(token: "not.a.token")
        #expect(bad.errorCode == "invalid_token" && bad.error?.isEmpty == false)

        let stranger = Assent(tenantID: "no-such-tenant", baseURL: server.apiURL, keyStore: InMemoryKeyStore(),
                              transport: URLSessionTransport(), clock: .system)
        let keyStore = InMemoryKeyStore()
        _ = try await keyStore.createKey(named: AssentPush.keyName, userPresenceRequired: false)
        let wrongTenant = Assent(tenantID: "no-such-tenant", baseURL: server.apiURL, keyStore: keyStore,
                                 transport: URLSessionTransport(), clock: .system)
        #expect(await stranger.push.getCredential().errorCode == "credential_not_found")
        #expect(await wrongTenant.push.getCredential().errorCode == "unauthorized")

        let wrongBase = Assent(tenantID: server.tenantID, baseURL: server.url + "/v2", keyStore: keyStore,
                               transport: URLSessionTransport(), clock: .system)
        let closed = Assent(tenantID: server.tenantID, baseURL: "http://127.0.0.1:1/v1", keyStore: keyStore,
                            transport: URLSessionTransport(), clock: .system)
        #expect(await closed.push.getCredential().errorCode == "network_error")

        let notFound = await wrongBase.push.getCredential()
        #expect(notFound.errorCode == "api_error" || notFound.errorCode == "not_found", "\(notFound.error ?? "")")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
