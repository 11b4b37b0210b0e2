import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Foundation
import Testing

/// The credential operations on the wire: paths, methods, headers, bodies and signatures, against a fake transport.
@Suite struct PushCredentialTests {
    private let path = PushFixture.credentialPath

    @Test func `addCredential creates a key and posts its SPKI with the bearer token`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", path, json: """
            {"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"2026-11-30T06:16:58.123Z"}
            """)
        let response = await fixture.assent.push.addCredential(token: "tok.en.jwt", pushToken: "fcm-123")
        #expect(!response.isError, "\(response.error ?? "")")
        // Never used yet: lastAuthenticatedAt is null until the first approve, deny, claim or update.
        #expect(response.data == AppCredential(
            credentialId: "ua_1", createdAt: "2026-11-30T06:16:58.123Z", userId: "alice", lastAuthenticatedAt: nil))

        let request = try #require(fixture.sent.first)
        #expect(fixture.sent.count == 1)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://assent.test/v1/client/user-authenticators/push")
        #expect(request.header("Authorization") == "Bearer tok.en.jwt")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("X-Authsignal-SDK") == "assent-swift")
        #expect(request.header("X-Authsignal-Version") == Assent.version)
        #expect(request.header("User-Agent") == "AssentSwiftSDK/\(Assent.version)")

        let body = try request.jsonBody()
        let publicKey = try #require(body["publicKey"] as? String)
        #expect(publicKey == (try await fixture.storedPublicKey()))
        #expect(publicKey.count == 124 && publicKey.hasPrefix("MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"))
        #expect(Base64.decodeStrict(publicKey).map(Base64.encode) == publicKey)  // standard alphabet, padded
        #expect(body["deviceName"] as? String == "test-host")
        #expect(body["devicePlatform"] as? String == "linux")
        #expect(body["pushToken"] as? String == "fcm-123")
        #expect(body["userPresenceRequired"] as? Bool == false)
    }

    @Test func `addCredential reuses the key already on the device`() async throws {
        let fixture = PushFixture()
        let existing = try fixture.enrol()
        fixture.transport.on("POST", path, json: #"{"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"t"}"#)
        _ = await fixture.assent.push.addCredential(token: "t")
        #expect(try fixture.sent[0].jsonBody()["publicKey"] as? String == existing)
        #expect(try fixture.sent[0].jsonBody()["pushToken"] == nil)
        #expect(try await fixture.storedPublicKey() == existing)
    }

    @Test func `addCredential records userPresenceRequired on a new key and sends it`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", path, json: #"{"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"t"}"#)
        _ = await fixture.assent.push.addCredential(token: "t", userPresenceRequired: true)
        let key = try #require(try await fixture.keyStore.loadKey(named: AssentPush.keyName))
        #expect(key.userPresenceRequired)
        #expect(try fixture.sent[0].jsonBody()["userPresenceRequired"] as? Bool == true)
    }

    @Test func `addCredential passes the expiresAt the server sets`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", path, json: """
            {"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"a","expiresAt":"2027-01-01T00:00:00.000Z"}
            """)
        let response = await fixture.assent.push.addCredential(token: "t")
        #expect(response.data?.expiresAt == "2027-01-01T00:00:00.000Z")
    }

    @Test func `getCredential asks by the double-encoded public key with tenant auth`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrol()
        fixture.transport.on("GET", path, json: PushFixture.credentialJSON)
        let response = await fixture.assent.push.getCredential()
        #expect(response.data == AppCredential(
            credentialId: "ua_1", createdAt: "2026-11-30T06:16:58.123Z", userId: "alice",
            lastAuthenticatedAt: "2026-12-01T08:00:00.000Z", expiresAt: "2027-03-01T08:00:00.000Z"))

        let request = try #require(fixture.transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.path == path)
        #expect(request.body == nil && request.header("Content-Type") == nil)
        #expect(request.header("Authorization") == PushFixture.tenantAuthorization)
        let query = try #require(request.query("publicKey"))
        #expect(query == Base64.encodeURL(Array(publicKey.utf8)))
        #expect(!query.contains("=") && !query.contains("+") && !query.contains("/") && !query.contains("%"))
        #expect(Base64.decodeURL(query).map { String(decoding: $0, as: UTF8.self) } == publicKey)
    }

    @Test func `getCredential without a local key is credential_not_found and sends nothing`() async {
        let fixture = PushFixture()
        let response = await fixture.assent.push.getCredential()
        #expect(response.errorCode == "credential_not_found" && response.data == nil && response.error != nil)
        #expect(fixture.sent.isEmpty)
    }

    @Test func `updateCredential signs the server nonce and patches with it`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrol()
        fixture.transport.on("POST", path + "/sign", json: #"{"challengeId":"nonce_1","message":"m-5f2a9c"}"#)
        fixture.transport.on("PATCH", path, json: """
            {"userAuthenticatorId":"ua_1","userId":"alice","lastVerifiedAt":"2026-12-01T08:00:00.000Z",\
            "pushToken":"apns-2","expiresAt":"2027-03-01T08:00:00.000Z"}
            """)
        let response = await fixture.assent.push.updateCredential(pushToken: "apns-2", resetExpiry: true)
        #expect(response.data == UpdatedAppCredential(
            userAuthenticatorId: "ua_1", userId: "alice", lastVerifiedAt: "2026-12-01T08:00:00.000Z",
            pushToken: "apns-2", expiresAt: "2027-03-01T08:00:00.000Z"))

        #expect(fixture.sent.map(\.method) == ["POST", "PATCH"])
        let nonce = fixture.sent[0]
        #expect(nonce.url.path == path + "/sign" && nonce.body == nil)
        #expect(nonce.query("publicKey") == Base64.encodeURL(Array(publicKey.utf8)))
        #expect(nonce.header("Authorization") == PushFixture.tenantAuthorization)

        let patch = fixture.sent[1]
        #expect(patch.url.path == path && patch.url.query == nil)
        #expect(patch.header("Authorization") == PushFixture.tenantAuthorization)
        #expect(patch.header("Content-Type") == "application/json")
        let body = try patch.jsonBody()
        #expect(body["challengeId"] as? String == "nonce_1")
        #expect(body["publicKey"] as? String == publicKey)
        #expect(body["pushToken"] as? String == "apns-2")
        #expect(body["resetExpiry"] as? Bool == true)
        #expect(verifies(
            signature: body["signature"] as? String, message: SignedMessage.update(credentialId: "ua_1", nonce: "m-5f2a9c"),
            publicKey: publicKey))
        #expect(!verifies(signature: body["signature"] as? String, message: "m-5f2a9c", publicKey: publicKey))
    }

    @Test func `updateCredential leaves out resetExpiry and pushToken when not asked`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/sign", json: #"{"challengeId":"n","message":"m"}"#)
        fixture.transport.on("PATCH", path, json: #"{"userAuthenticatorId":"ua_1","userId":"alice","lastVerifiedAt":"x"}"#)
        let response = await fixture.assent.push.updateCredential()
        #expect(response.data?.pushToken == nil && !response.isError)
        let body = try fixture.sent[1].jsonBody()
        #expect(body["resetExpiry"] == nil && body["pushToken"] == nil)
    }

    @Test func `updateCredential refuses a nonce answer without challengeId or message`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/sign", json: #"{"message":"m"}"#)
        let response = await fixture.assent.push.updateCredential(resetExpiry: true)
        #expect(response.error == "Invalid signing message response." && response.errorCode == "decoding_error")
        #expect(fixture.sent.count == 1)
    }

    @Test func `removeCredential signs the bound removal of its window, posts it and deletes the key`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrol()
        fixture.transport.on("POST", path + "/remove", json: #"{"removedAuthenticatorId":"ua_1"}"#)
        let response = await fixture.assent.push.removeCredential()
        #expect(response.data == true && !response.isError)

        let request = try #require(fixture.sent.first)
        #expect(request.method == "POST" && request.url.path == path + "/remove" && request.url.query == nil)
        #expect(request.header("Authorization") == PushFixture.tenantAuthorization)
        let body = try request.jsonBody()
        #expect(body["publicKey"] as? String == publicKey)
        #expect(SignedMessage.timeWindow(unixSeconds: PushFixture.now) == PushFixture.timeWindowMessage)
        #expect(verifies(
            signature: body["signature"] as? String, message: "assent-bound-v1\nremove\nua_1\nPUSH\n2993364.0",
            publicKey: publicKey))
        #expect(!verifies(signature: body["signature"] as? String, message: "2993364.0", publicKey: publicKey))
        #expect(try await fixture.storedPublicKey() == nil)
    }

    @Test func `removeCredential deletes the key even when the server refuses, and returns the server's error`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/remove", status: 401, json: """
            {"error":"invalid_credential","errorCode":"invalid_credential","errorDescription":"The credential is not valid."}
            """)
        let response = await fixture.assent.push.removeCredential()
        #expect(response.data == false)
        #expect(response.errorCode == "invalid_credential" && response.error == "The credential is not valid.")
        #expect(try await fixture.storedPublicKey() == nil)
    }

    @Test func `removeCredential deletes the key when the server cannot be reached, and says so`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.unreachable("POST", path + "/remove")
        let response = await fixture.assent.push.removeCredential()
        #expect(response.data == false && response.errorCode == "network_error")
        #expect(try await fixture.storedPublicKey() == nil)
    }

    @Test func `removeCredential without a local key is credential_not_found`() async {
        let fixture = PushFixture()
        let response = await fixture.assent.push.removeCredential()
        #expect(response.errorCode == "credential_not_found")
        #expect(fixture.sent.isEmpty)
    }

    @Test func `the platform and name sent at enrolment are configurable`() async throws {
        let fixture = PushFixture(device: DeviceInfo(name: "Kiosk 7", platform: "android"))
        fixture.transport.on("POST", path, json: #"{"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"t"}"#)
        _ = await fixture.assent.push.addCredential(token: "t")
        let body = try fixture.sent[0].jsonBody()
        #expect(body["deviceName"] as? String == "Kiosk 7" && body["devicePlatform"] as? String == "android")
        #expect(DeviceInfo.current.platform == "linux" && !DeviceInfo.current.name.isEmpty)
    }

    @Test func `a trailing slash on the base URL does not double the separator`() async throws {
        let transport = FakeTransport()
        let keyStore = InMemoryKeyStore()
        try keyStore.store(SoftwareSigningKey(privateKey: P256.PrivateKey()), named: AssentPush.keyName)
        let assent = Assent(tenantID: "t", baseURL: "http://assent.test/v1/", keyStore: keyStore, transport: transport,
                            clock: .system)
        transport.on("GET", PushFixture.credentialPath, json: PushFixture.credentialJSON)
        #expect(await assent.push.getCredential().data?.credentialId == "ua_1")
        #expect(assent.baseURL == "http://assent.test/v1")
    }
}
