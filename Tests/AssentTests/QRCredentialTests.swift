import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Foundation
import Testing

/// The QR code credential on the wire — its own key, separate from push — against a fake transport.
@Suite struct QRCredentialTests {
    private let path = PushFixture.qrPath

    @Test func `addCredential creates the QR key and posts its SPKI to qr-code with the bearer token`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", path, json: """
            {"userAuthenticatorId":"ua_qr","userId":"alice","verifiedAt":"2026-11-30T06:16:58.123Z"}
            """)
        let response = await fixture.assent.qr.addCredential(token: "tok.en.jwt")
        #expect(!response.isError, "\(response.error ?? "")")
        // Never used yet: lastAuthenticatedAt is null until the first approve, deny, claim or update.
        #expect(response.data == AppCredential(
            credentialId: "ua_qr", createdAt: "2026-11-30T06:16:58.123Z", userId: "alice", lastAuthenticatedAt: nil))

        let request = try #require(fixture.sent.first)
        #expect(fixture.sent.count == 1)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://assent.test/v1/client/user-authenticators/qr-code")
        #expect(request.header("Authorization") == "Bearer tok.en.jwt")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("X-Authsignal-SDK") == "assent-swift")
        let body = try request.jsonBody()
        let publicKey = try #require(body["publicKey"] as? String)
        #expect(publicKey == (try await fixture.storedPublicKey(named: AssentQRCode.keyName)))
        #expect(publicKey.hasPrefix("MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"))
        #expect(body["deviceName"] as? String == "test-host" && body["devicePlatform"] as? String == "linux")
        #expect(body["userPresenceRequired"] as? Bool == false)
        #expect(body["pushToken"] == nil)
        #expect(try await fixture.keyStore.loadKey(named: AssentPush.keyName) == nil, "no push key is made")
    }

    @Test func `the QR key is separate from the push key`() async throws {
        let fixture = PushFixture()
        let pushKey = try fixture.enrol()
        fixture.transport.on("POST", path, json: #"{"userAuthenticatorId":"ua_qr","userId":"alice","verifiedAt":"t"}"#)
        _ = await fixture.assent.qr.addCredential(token: "t")
        let sent = try #require(try fixture.sent[0].jsonBody()["publicKey"] as? String)
        #expect(sent != pushKey)
        #expect(try await fixture.storedPublicKey(named: AssentQRCode.keyName) == sent)
        #expect(try await fixture.storedPublicKey(named: AssentPush.keyName) == pushKey)
        #expect(AssentQRCode.keyName == "assent_signing_key_qr_code" && AssentQRCode.keyName != AssentPush.keyName)
    }

    @Test func `addCredential reuses the QR key already on the device`() async throws {
        let fixture = PushFixture()
        let existing = try fixture.enrolQR()
        fixture.transport.on("POST", path, json: #"{"userAuthenticatorId":"ua_qr","userId":"alice","verifiedAt":"t"}"#)
        _ = await fixture.assent.qr.addCredential(token: "t")
        #expect(try fixture.sent[0].jsonBody()["publicKey"] as? String == existing)
    }

    @Test func `addCredential records userPresenceRequired on a new key and sends it`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", path, json: #"{"userAuthenticatorId":"ua_qr","userId":"alice","verifiedAt":"t"}"#)
        _ = await fixture.assent.qr.addCredential(token: "t", userPresenceRequired: true)
        let key = try #require(try await fixture.keyStore.loadKey(named: AssentQRCode.keyName))
        #expect(key.userPresenceRequired)
        #expect(try fixture.sent[0].jsonBody()["userPresenceRequired"] as? Bool == true)
    }

    @Test func `addCredential uses the cached token, and without one is token_not_set with nothing sent`() async throws {
        let fixture = PushFixture()
        let missing = await fixture.assent.qr.addCredential()
        #expect(missing.errorCode == "token_not_set" && missing.data == nil)
        #expect(missing.error == "A token has not been set. Call 'setToken' first.")
        #expect(fixture.sent.isEmpty)

        fixture.transport.on("POST", path, json: #"{"userAuthenticatorId":"ua_qr","userId":"alice","verifiedAt":"t"}"#)
        fixture.assent.setToken("cached.token")
        let added = await fixture.assent.qr.addCredential()
        #expect(added.data?.credentialId == "ua_qr")
        #expect(fixture.sent[0].header("Authorization") == "Bearer cached.token")
    }

    @Test func `addCredential passes the server's refusal through`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", path, status: 401, json: """
            {"error":"expired_token","errorCode":"expired_token","errorDescription":"The token has expired."}
            """)
        let response = await fixture.assent.qr.addCredential(token: "old")
        #expect(response.errorCode == "expired_token" && response.error == "The token has expired." && response.data == nil)
    }

    @Test func `getCredential asks qr-code by the double-encoded public key with tenant auth`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrolQR()
        fixture.transport.on("GET", path, json: PushFixture.credentialJSON)
        let response = await fixture.assent.qr.getCredential()
        #expect(response.data == AppCredential(
            credentialId: "ua_1", createdAt: "2026-11-30T06:16:58.123Z", userId: "alice",
            lastAuthenticatedAt: "2026-12-01T08:00:00.000Z", expiresAt: "2027-03-01T08:00:00.000Z"))
        let request = try #require(fixture.transport.requests.first)
        #expect(request.method == "GET" && request.url.path == path && request.body == nil)
        #expect(request.query("publicKey") == Base64.encodeURL(Array(publicKey.utf8)))
        #expect(request.header("Authorization") == PushFixture.tenantAuthorization)
    }

    @Test func `getCredential with only a push key is credential_not_found and sends nothing`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        let response = await fixture.assent.qr.getCredential()
        #expect(response.errorCode == "credential_not_found" && response.data == nil)
        #expect(fixture.sent.isEmpty)
    }

    @Test func `getCredential passes invalid_credential through`() async throws {
        let fixture = PushFixture()
        try fixture.enrolQR(lookup: false)
        fixture.transport.on("GET", path, status: 401, json: """
            {"error":"invalid_credential","errorCode":"invalid_credential","errorDescription":"Unknown credential."}
            """)
        let response = await fixture.assent.qr.getCredential()
        #expect(response.errorCode == "invalid_credential" && response.error == "Unknown credential.")
    }

    @Test func `removeCredential signs the bound removal, removes on the server, and deletes only the QR key`() async throws {
        let fixture = PushFixture()
        let pushKey = try fixture.enrol()
        let publicKey = try fixture.enrolQR()
        fixture.transport.on("POST", path + "/remove", json: #"{"removedAuthenticatorId":"ua_qr"}"#)
        let response = await fixture.assent.qr.removeCredential()
        #expect(response.data == true && !response.isError)

        let request = try #require(fixture.sent.first)
        #expect(request.method == "POST" && request.url.path == path + "/remove" && request.url.query == nil)
        #expect(request.header("Authorization") == PushFixture.tenantAuthorization)
        let body = try request.jsonBody()
        #expect(body["publicKey"] as? String == publicKey)
        let removal = "assent-bound-v1\nremove\nua_1\nDEVICE\n\(PushFixture.timeWindowMessage)"
        #expect(verifies(signature: body["signature"] as? String, message: removal, publicKey: publicKey))
        #expect(try await fixture.keyStore.loadKey(named: AssentQRCode.keyName) == nil)
        #expect(try await fixture.storedPublicKey(named: AssentPush.keyName) == pushKey)
    }

    @Test func `removeCredential deletes the key even when the server refuses, and says why`() async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        fixture.transport.on("POST", path + "/remove", status: 401, json: """
            {"error":"invalid_credential","errorCode":"invalid_credential","errorDescription":"Unknown credential."}
            """)
        let response = await fixture.assent.qr.removeCredential()
        #expect(response.data == false && response.errorCode == "invalid_credential")
        #expect(try await fixture.keyStore.loadKey(named: AssentQRCode.keyName) == nil)
    }

    @Test func `removeCredential without a QR key is credential_not_found`() async {
        let fixture = PushFixture()
        let response = await fixture.assent.qr.removeCredential()
        #expect(response.errorCode == "credential_not_found" && fixture.sent.isEmpty)
    }
}
