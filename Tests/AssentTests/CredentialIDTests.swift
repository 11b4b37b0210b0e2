import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Foundation
import Testing
import AssentTestSupport

/// The credential id the bound messages name: remembered with the key from enrolment (or the first `GET`), so a signed
/// call costs no extra round trip, and fetched again once when the server refuses a remembered id.
@Suite struct CredentialIDTests {
    private let path = PushFixture.credentialPath
    private let qrPath = PushFixture.qrPath

    private static let enrolledJSON = #"{"userAuthenticatorId":"ua_7","userId":"alice","verifiedAt":"t"}"#
    private static func refusal(_ code: String) -> String {
        #"{"error":"\#(code)","errorCode":"\#(code)","errorDescription":"Refused: \#(code)."}"#
    }

    private func approval(_ credentialId: String, _ challengeId: String = "ch_1") -> String {
        SignedMessage.decision(credentialId: credentialId, challengeId: challengeId, approved: true, verificationCode: nil)
    }

    /// Enrols push through the SDK (the server answers `ua_7`) and returns the public key; the enrolment's request is
    /// dropped from the record.
    private func enrolled(_ fixture: PushFixture) async throws -> String {
        fixture.transport.on("POST", path, json: Self.enrolledJSON)
        #expect(await fixture.assent.push.addCredential(token: "t").data?.credentialId == "ua_7")
        return try #require(try await fixture.storedPublicKey())
    }

    private func gets(_ transport: FakeTransport) -> Int {
        transport.requests.filter { $0.method == "GET" && [path, qrPath].contains($0.url.path) }.count
    }

    // MARK: Remembered

    @Test func `an approval after enrolment sends exactly one request and names the enrolled id`() async throws {
        let fixture = PushFixture()
        let publicKey = try await enrolled(fixture)
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        let before = fixture.transport.requests.count
        #expect(await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true).data == true)

        let sent = Array(fixture.transport.requests.dropFirst(before))
        #expect(sent.map(\.method) == ["POST"] && sent[0].url.path == path + "/challenge")
        #expect(verifies(signature: try sent[0].jsonBody()["boundSignature"] as? String, message: approval("ua_7"), publicKey: publicKey))
    }

    @Test func `an approval after a restart over the same key store sends no GET`() async throws {
        let fixture = PushFixture()
        let publicKey = try await enrolled(fixture)
        let restarted = Assent(
            tenantID: PushFixture.tenantID, baseURL: PushFixture.baseURL, keyStore: fixture.keyStore,
            transport: fixture.transport, clock: .fixed(unixSeconds: PushFixture.now))
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        #expect(await restarted.push.updateChallenge(challengeId: "ch_1", approved: true).data == true)
        #expect(gets(fixture.transport) == 0)
        let answer = try #require(fixture.transport.requests("POST", path + "/challenge").first)
        #expect(verifies(signature: try answer.jsonBody()["boundSignature"] as? String, message: approval("ua_7"), publicKey: publicKey))
    }

    @Test(arguments: [nil, "pass"] as [String?])
    func `a FileKeyStore keeps the id in the key file, so the next process sends no GET`(passphrase: String?) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        let keyFile = "\(directory)/\(AssentPush.keyName).key"
        let transport = FakeTransport()
        transport.on("POST", path, json: Self.enrolledJSON)
        transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        func sdk(_ transport: FakeTransport) -> Assent {
            Assent(tenantID: "t", baseURL: PushFixture.baseURL,
                   keyStore: FileKeyStore(directory: directory, passphrase: passphrase, iterations: 1_000),
                   transport: transport, clock: .fixed(unixSeconds: PushFixture.now))
        }
        #expect(await sdk(transport).push.addCredential(token: "t").data?.credentialId == "ua_7")
        let file = try String(contentsOfFile: keyFile, encoding: .utf8)
        #expect(file.contains(#""credentialId" : "ua_7""#))
        #expect(await sdk(transport).push.updateChallenge(challengeId: "ch_1", approved: true).data == true)
        #expect(await sdk(transport).push.updateChallenge(challengeId: "ch_2", approved: true).data == true)
        #expect(gets(transport) == 0)

        // The id is a hint outside the sealed part: an edited one still opens the key, is refused, and is replaced.
        try file.replacingOccurrences(of: "ua_7", with: "ua_8").write(toFile: keyFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        let server = FakeTransport()
        server.on("GET", path, json: #"{"userAuthenticatorId":"ua_7","verifiedAt":"t","userId":"alice"}"#)
        server.on("POST", path + "/challenge", status: 401, json: Self.refusal("invalid_signature"))
        server.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        #expect(await sdk(server).push.updateChallenge(challengeId: "ch_3", approved: true).data == true)
        #expect(server.requests.map(\.method) == ["POST", "GET", "POST"])
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == file)
    }

    @Test func `a key enrolled before ids were kept costs one GET, then none`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrol()  // planted without an id; the server knows it as ua_1
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true).data == true)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "ch_2", approved: false).data == true)
        #expect(fixture.transport.requests.map(\.method) == ["GET", "POST", "POST"])
        let second = try fixture.transport.requests[2].jsonBody()
        let deny = SignedMessage.decision(credentialId: "ua_1", challengeId: "ch_2", approved: false, verificationCode: nil)
        #expect(verifies(signature: second["boundSignature"] as? String, message: deny, publicKey: publicKey))
    }

    @Test func `getCredential remembers the id it reads`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        #expect(await fixture.assent.push.getCredential().data?.credentialId == "ua_1")
        #expect(await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true).data == true)
        #expect(fixture.transport.requests.map(\.method) == ["GET", "POST"])
    }

    @Test func `a claim, an update and a removal with a remembered id send no GET`() async throws {
        let fixture = PushFixture()
        let publicKey = try await enrolled(fixture)
        fixture.transport.on("POST", path + "/sign", json: #"{"challengeId":"n1","message":"m1"}"#)
        fixture.transport.on("PATCH", path, json: #"{"userAuthenticatorId":"ua_7","userId":"alice","lastVerifiedAt":"x"}"#)
        fixture.transport.on("POST", path + "/remove", json: #"{"removedAuthenticatorId":"ua_7"}"#)
        #expect(await fixture.assent.push.updateCredential(resetExpiry: true).data?.userAuthenticatorId == "ua_7")
        #expect(await fixture.assent.push.removeCredential().data == true)
        #expect(gets(fixture.transport) == 0)
        let patch = try #require(fixture.transport.requests("PATCH", path).first).jsonBody()
        #expect(verifies(
            signature: patch["signature"] as? String, message: SignedMessage.update(credentialId: "ua_7", nonce: "m1"),
            publicKey: publicKey))
        let removal = try #require(fixture.transport.requests("POST", path + "/remove").first).jsonBody()
        #expect(verifies(
            signature: removal["signature"] as? String, message: "assent-bound-v1\nremove\nua_7\nPUSH\n2993364.0",
            publicKey: publicKey))

        fixture.transport.on("POST", qrPath, json: #"{"userAuthenticatorId":"ua_q","userId":"alice","verifiedAt":"t"}"#)
        fixture.transport.on("POST", qrPath + "/challenge/claim", json: PushFixture.claimJSON)
        #expect(await fixture.assent.qr.addCredential(token: "t").data?.credentialId == "ua_q")
        #expect(await fixture.assent.qr.claimChallenge(challengeId: PushFixture.challengeID).data != nil)
        #expect(gets(fixture.transport) == 0)
        let claim = try #require(fixture.transport.requests("POST", qrPath + "/challenge/claim").first).jsonBody()
        let storedKey = try #require(try await fixture.storedPublicKey(named: AssentQRCode.keyName))
        #expect(verifies(
            signature: claim["signature"] as? String,
            message: SignedMessage.claim(credentialId: "ua_q", challengeId: PushFixture.challengeID),
            publicKey: storedKey))
    }

    @Test func `a key store without its own place for the id keeps it as a secret beside the key`() async throws {
        let fixture = PushFixture()
        let plain = PlainKeyStore(inner: fixture.keyStore)
        func sdk() -> Assent {
            Assent(tenantID: PushFixture.tenantID, baseURL: PushFixture.baseURL, keyStore: plain,
                   transport: fixture.transport, clock: .fixed(unixSeconds: PushFixture.now))
        }
        fixture.transport.on("POST", path, json: Self.enrolledJSON)
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        fixture.transport.on("POST", path + "/remove", json: #"{"removedAuthenticatorId":"ua_7"}"#)
        #expect(await sdk().push.addCredential(token: "t").data?.credentialId == "ua_7")
        #expect(await sdk().push.updateChallenge(challengeId: "ch_1", approved: true).data == true)
        #expect(gets(fixture.transport) == 0)
        #expect(try await plain.loadSecret(named: "\(AssentPush.keyName).credential-id") != nil)
        #expect(await sdk().push.removeCredential().data == true)
        #expect(try await plain.loadSecret(named: "\(AssentPush.keyName).credential-id") == nil)
    }

    // MARK: Forgotten

    @Test func `removing the credential or replacing the key forgets the id`() async throws {
        let fixture = PushFixture()
        _ = try await enrolled(fixture)
        fixture.transport.on("POST", path + "/remove", json: #"{"removedAuthenticatorId":"ua_7"}"#)
        #expect(await fixture.assent.push.removeCredential().data == true)
        let key = try await fixture.keyStore.createKey(named: AssentPush.keyName, accessPolicy: .none)
        #expect(try await fixture.keyStore.credentialID(forKeyNamed: AssentPush.keyName, publicKey: key.publicKey) == nil)

        try await fixture.keyStore.setCredentialID("ua_9", forKeyNamed: AssentPush.keyName, publicKey: key.publicKey)
        let replaced = try await fixture.keyStore.createKey(named: AssentPush.keyName, accessPolicy: .none)
        #expect(try await fixture.keyStore.credentialID(forKeyNamed: AssentPush.keyName, publicKey: replaced.publicKey) == nil)
        #expect(try await fixture.keyStore.credentialID(forKeyNamed: AssentPush.keyName, publicKey: key.publicKey) == nil)
    }

    // MARK: Stale

    @Test(arguments: ["invalid_signature", "invalid_credential"])
    func `a refused remembered id is fetched once and the call retried once with the new id`(code: String) async throws {
        let fixture = PushFixture()
        let publicKey = try await enrolled(fixture)  // remembered ua_7; the server now knows the key as ua_1
        fixture.transport.on("GET", path, json: PushFixture.credentialJSON)
        fixture.transport.on("POST", path + "/challenge", status: 401, json: Self.refusal(code))
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        let before = fixture.transport.requests.count
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true)
        #expect(response.data == true && !response.isError, "\(response.error ?? "")")

        let sent = Array(fixture.transport.requests.dropFirst(before))
        #expect(sent.map(\.method) == ["POST", "GET", "POST"])
        #expect(verifies(signature: try sent[0].jsonBody()["boundSignature"] as? String, message: approval("ua_7"), publicKey: publicKey))
        #expect(verifies(signature: try sent[2].jsonBody()["boundSignature"] as? String, message: approval("ua_1"), publicKey: publicKey))

        // The new id is remembered: the next approval goes straight out.
        #expect(await fixture.assent.push.updateChallenge(challengeId: "ch_2", approved: true).data == true)
        #expect(gets(fixture.transport) == 1)
        let last = try #require(fixture.transport.requests.last).jsonBody()
        #expect(verifies(signature: last["boundSignature"] as? String, message: approval("ua_1", "ch_2"), publicKey: publicKey))
    }

    @Test func `a second refusal is returned as is, with no further GET or retry`() async throws {
        let fixture = PushFixture()
        _ = try await enrolled(fixture)
        fixture.transport.on("GET", path, json: PushFixture.credentialJSON)
        fixture.transport.on("POST", path + "/challenge", status: 401, json: Self.refusal("invalid_signature"))
        fixture.transport.on("POST", path + "/challenge", status: 401, json: Self.refusal("invalid_credential"))
        let before = fixture.transport.requests.count
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true)
        #expect(response.errorCode == "invalid_credential" && response.error == "Refused: invalid_credential.")
        #expect(fixture.transport.requests.dropFirst(before).map(\.method) == ["POST", "GET", "POST"])
    }

    @Test func `a removed credential is invalid_credential after one GET, with no retry`() async throws {
        let fixture = PushFixture()
        _ = try await enrolled(fixture)
        fixture.transport.on("GET", path, status: 401, json: Self.refusal("invalid_credential"))
        fixture.transport.on("POST", path + "/challenge", status: 401, json: Self.refusal("invalid_credential"))
        let before = fixture.transport.requests.count
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true)
        #expect(response.errorCode == "invalid_credential")
        #expect(fixture.transport.requests.dropFirst(before).map(\.method) == ["POST", "GET"])
    }

    @Test func `the same id from the GET is not retried`() async throws {
        let fixture = PushFixture()
        _ = try await enrolled(fixture)
        fixture.transport.on("GET", path, json: #"{"userAuthenticatorId":"ua_7","verifiedAt":"t","userId":"alice"}"#)
        fixture.transport.on("POST", path + "/challenge", status: 401, json: Self.refusal("invalid_signature"))
        let before = fixture.transport.requests.count
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true)
        #expect(response.errorCode == "invalid_signature")
        #expect(fixture.transport.requests.dropFirst(before).map(\.method) == ["POST", "GET"])
    }

    @Test(arguments: [(410, "challenge_closed"), (403, "forbidden"), (429, "rate_limited"), (400, "invalid_request")])
    func `other refusals are never retried and keep the id`(status: Int, code: String) async throws {
        let fixture = PushFixture()
        _ = try await enrolled(fixture)
        fixture.transport.on("POST", path + "/challenge", status: status, json: Self.refusal(code))
        let before = fixture.transport.requests.count
        #expect(await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true).errorCode == code)
        #expect(await fixture.assent.push.updateChallenge(challengeId: "ch_1", approved: true).errorCode == code)
        #expect(fixture.transport.requests.dropFirst(before).map(\.method) == ["POST", "POST"])
    }

    @Test func `an update retried after a stale id asks for a new nonce`() async throws {
        let fixture = PushFixture()
        let publicKey = try await enrolled(fixture)
        fixture.transport.on("GET", path, json: PushFixture.credentialJSON)
        fixture.transport.on("POST", path + "/sign", json: #"{"challengeId":"n1","message":"m1"}"#)
        fixture.transport.on("POST", path + "/sign", json: #"{"challengeId":"n2","message":"m2"}"#)
        fixture.transport.on("PATCH", path, status: 401, json: Self.refusal("invalid_signature"))
        fixture.transport.on("PATCH", path, json: #"{"userAuthenticatorId":"ua_1","userId":"alice","lastVerifiedAt":"x"}"#)
        let before = fixture.transport.requests.count
        #expect(await fixture.assent.push.updateCredential(resetExpiry: true).data?.userAuthenticatorId == "ua_1")
        let sent = Array(fixture.transport.requests.dropFirst(before))
        #expect(sent.map(\.method) == ["POST", "PATCH", "GET", "POST", "PATCH"])
        let retried = try sent[4].jsonBody()
        #expect(retried["challengeId"] as? String == "n2")
        #expect(verifies(
            signature: retried["signature"] as? String, message: SignedMessage.update(credentialId: "ua_1", nonce: "m2"),
            publicKey: publicKey))
    }

    @Test func `a claim and a removal with a stale id are retried once`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", qrPath, json: #"{"userAuthenticatorId":"ua_q","userId":"alice","verifiedAt":"t"}"#)
        #expect(await fixture.assent.qr.addCredential(token: "t").data?.credentialId == "ua_q")
        // The server knows the key as ua_1 at the claim, and as ua_2 (enrolled again meanwhile) at the removal.
        fixture.transport.on("GET", qrPath, json: PushFixture.credentialJSON)
        fixture.transport.on("GET", qrPath, json: #"{"userAuthenticatorId":"ua_2","verifiedAt":"t","userId":"alice"}"#)
        fixture.transport.on("POST", qrPath + "/challenge/claim", status: 401, json: Self.refusal("invalid_signature"))
        fixture.transport.on("POST", qrPath + "/challenge/claim", json: PushFixture.claimJSON)
        #expect(await fixture.assent.qr.claimChallenge(challengeId: PushFixture.challengeID).data != nil)
        #expect(fixture.transport.requests("POST", qrPath + "/challenge/claim").count == 2)
        #expect(gets(fixture.transport) == 1)

        // ua_1 is remembered now; the server refuses it too.
        fixture.transport.on("POST", qrPath + "/remove", status: 401, json: Self.refusal("invalid_signature"))
        fixture.transport.on("POST", qrPath + "/remove", json: #"{"removedAuthenticatorId":"ua_2"}"#)
        let publicKey = try #require(try await fixture.storedPublicKey(named: AssentQRCode.keyName))
        #expect(await fixture.assent.qr.removeCredential().data == true)
        let removals = fixture.transport.requests("POST", qrPath + "/remove")
        #expect(removals.count == 2 && gets(fixture.transport) == 2)
        try #require(removals.count == 2)
        #expect(verifies(
            signature: try removals[1].jsonBody()["signature"] as? String,
            message: "assent-bound-v1\nremove\nua_2\nDEVICE\n2993364.0", publicKey: publicKey))
        #expect(try await fixture.storedPublicKey(named: AssentQRCode.keyName) == nil)
    }
}

/// A ``KeyStore`` with only the protocol's operations (as a platform adapter outside this package would be).
private struct PlainKeyStore: KeyStore {
    let inner: InMemoryKeyStore
    func loadKey(named name: String) async throws -> (any SigningKey)? { try await inner.loadKey(named: name) }
    func createKey(named name: String, accessPolicy: KeyAccessPolicy) async throws -> any SigningKey {
        try await inner.createKey(named: name, accessPolicy: accessPolicy)
    }
    func deleteKey(named name: String) async throws -> Bool { try await inner.deleteKey(named: name) }
    func loadSecret(named name: String) async throws -> [UInt8]? { try await inner.loadSecret(named: name) }
    func storeSecret(_ secret: [UInt8], named name: String) async throws { try await inner.storeSecret(secret, named: name) }
    func deleteSecret(named name: String) async throws -> Bool { try await inner.deleteSecret(named: name) }
}
