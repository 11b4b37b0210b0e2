import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Foundation
import Testing

/// Fetching and answering push challenges on the wire.
@Suite struct PushChallengeTests {
    private let path = PushFixture.credentialPath

    private static let pendingJSON = """
        {"userAuthenticatorId":"ua_1","challengeId":"ch_42","userId":"alice","actionCode":"signIn",\
        "idempotencyKey":"idem-1","deviceId":"dev-9","userAgent":"Mozilla/5.0 (X11; Linux)","ipAddress":"203.0.113.7",\
        "expiresAt":1796019155,"custom":{"amount":120.5,"currency":"NZD"},"user":{"custom":{"tier":"gold"}},\
        "verificationCodeRequired":true}
        """

    @Test func `getChallenge signs the server nonce and sends it as X-Authsignal-Signature`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge/sign", json: #"{"message":"nonce-abc-123"}"#)
        fixture.transport.on("GET", path + "/challenge", json: Self.pendingJSON)
        let response = await fixture.assent.push.getChallenge()
        #expect(!response.isError, "\(response.error ?? "")")
        let challenge = try #require(response.data)
        #expect(challenge == AppChallenge(
            challengeId: "ch_42", userId: "alice", actionCode: "signIn", idempotencyKey: "idem-1", deviceId: "dev-9",
            userAgent: "Mozilla/5.0 (X11; Linux)", ipAddress: "203.0.113.7", expiresAt: 1_796_019_155,
            custom: ["amount": .number(120.5), "currency": .string("NZD")],
            user: ChallengeUser(custom: ["tier": .string("gold")]), verificationCodeRequired: true))

        #expect(fixture.sent.map(\.method) == ["POST", "GET"])
        let query = Base64.encodeURL(Array(publicKey.utf8))
        let nonce = fixture.sent[0]
        #expect(nonce.url.path == path + "/challenge/sign" && nonce.body == nil && nonce.query("publicKey") == query)
        #expect(nonce.header("Authorization") == PushFixture.tenantAuthorization)
        let get = fixture.sent[1]
        #expect(get.url.path == path + "/challenge" && get.query("publicKey") == query && get.body == nil)
        #expect(get.header("Authorization") == PushFixture.tenantAuthorization)
        #expect(verifies(signature: get.header("X-Authsignal-Signature"), message: "nonce-abc-123", publicKey: publicKey))
    }

    @Test func `getChallenge answers nil data and no error when nothing is pending`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge/sign", json: #"{"message":"n"}"#)
        fixture.transport.on("GET", path + "/challenge", json: #"{"userAuthenticatorId":"ua_1","challengeId":null,"userId":null}"#)
        let response = await fixture.assent.push.getChallenge()
        #expect(!response.isError && response.error == nil && response.errorCode == nil)
        #expect(response.data == nil)
    }

    /// The specification's pattern: `if let error … else if let challenge = response.data … else` (no pending challenge).
    @Test(arguments: [true, false])
    func `the document's if-let pattern binds the challenge itself or falls through to no challenge`(pending: Bool) async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge/sign", json: #"{"message":"n"}"#)
        fixture.transport.on("GET", path + "/challenge", json: pending
            ? #"{"userAuthenticatorId":"ua_1","challengeId":"ch_42","userId":"alice"}"#
            : #"{"userAuthenticatorId":"ua_1","challengeId":null,"userId":null}"#)
        let response = await fixture.assent.push.getChallenge()
        var branch = ""
        if response.error != nil {
            branch = "error"
        } else if let challenge = response.data {
            let challengeId: String = challenge.challengeId
            branch = "challenge " + challengeId
        } else {
            branch = "none"
        }
        #expect(branch == (pending ? "challenge ch_42" : "none"))
    }

    @Test func `getChallenge falls back to an unsigned request when the server has no nonce endpoint`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        // No route for the nonce: the fake answers 404 without a body.
        fixture.transport.on("GET", path + "/challenge", json: #"{"userAuthenticatorId":"ua_1","challengeId":"c","userId":"u"}"#)
        let response = await fixture.assent.push.getChallenge()
        #expect(response.data?.challengeId == "c")
        #expect(fixture.sent.count == 2)
        #expect(fixture.sent[1].header("X-Authsignal-Signature") == nil)
    }

    @Test func `getChallenge returns the nonce endpoint's error instead of dropping it`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge/sign", status: 401, json: """
            {"error":"invalid_credential","errorCode":"invalid_credential","errorDescription":"Unknown credential."}
            """)
        let response = await fixture.assent.push.getChallenge()
        #expect(response.errorCode == "invalid_credential" && response.error == "Unknown credential.")
        #expect(fixture.sent.count == 1)
    }

    @Test func `getChallenge with a challenge but no user is a decoding error`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge/sign", json: #"{"message":"n"}"#)
        fixture.transport.on("GET", path + "/challenge", json: #"{"userAuthenticatorId":"ua_1","challengeId":"c"}"#)
        #expect(await fixture.assent.push.getChallenge().errorCode == "decoding_error")
    }

    @Test(arguments: [(true, "123456" as String?), (false, nil), (true, nil), (false, "99")])
    func `updateChallenge sends the bound signature as signature and boundSignature`(approved: Bool, code: String?) async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        let response = await fixture.assent.push.updateChallenge(
            challengeId: "ch_42", approved: approved, verificationCode: code)
        #expect(response.data == true && !response.isError)

        let request = try #require(fixture.sent.first)
        #expect(fixture.sent.count == 1)
        #expect(request.method == "POST" && request.url.path == path + "/challenge" && request.url.query == nil)
        #expect(request.header("Authorization") == PushFixture.tenantAuthorization)
        #expect(request.header("Content-Type") == "application/json")
        let body = try request.jsonBody()
        #expect(body["challengeId"] as? String == "ch_42")
        #expect(body["publicKey"] as? String == publicKey)
        #expect(body["approved"] as? Bool == approved)
        #expect(body["verificationCode"] as? String == code)
        let decision = SignedMessage.decision(credentialId: "ua_1", challengeId: "ch_42", approved: approved, verificationCode: code)
        #expect(decision == "assent-bound-v1\n\(approved ? "approve" : "deny")\nua_1\nch_42\n\(code ?? "")")
        #expect(verifies(signature: body["boundSignature"] as? String, message: decision, publicKey: publicKey))
        #expect(body["signature"] as? String == body["boundSignature"] as? String)
        #expect(!verifies(signature: body["signature"] as? String, message: "ch_42", publicKey: publicKey),
                "the device never signs the bare challenge id")
        let flipped = SignedMessage.decision(credentialId: "ua_1", challengeId: "ch_42", approved: !approved, verificationCode: code)
        #expect(!verifies(signature: body["boundSignature"] as? String, message: flipped, publicKey: publicKey))
    }

    @Test func `a denial reporting fraud sends reportFraud and signs it in the bound message`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":false}"#)
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_42", approved: false, reportFraud: true)
        #expect(response.data == true && !response.isError)
        let body = try #require(fixture.sent.first).jsonBody()
        #expect(body["approved"] as? Bool == false && body["reportFraud"] as? Bool == true)
        let decision = SignedMessage.decision(
            credentialId: "ua_1", challengeId: "ch_42", approved: false, verificationCode: nil, reportFraud: true)
        #expect(decision == "assent-bound-v1\ndeny\nua_1\nch_42\n\nreport-fraud")
        #expect(verifies(signature: body["boundSignature"] as? String, message: decision, publicKey: publicKey))
        // Neither a plain denial's message nor one without the report verifies: the report cannot be stripped.
        let plain = SignedMessage.decision(credentialId: "ua_1", challengeId: "ch_42", approved: false, verificationCode: nil)
        #expect(!verifies(signature: body["boundSignature"] as? String, message: plain, publicKey: publicKey))
        // A plain answer sends no reportFraud at all (the official SDKs' wire).
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":false}"#)
        _ = await fixture.assent.push.updateChallenge(challengeId: "ch_43", approved: false)
        #expect(try #require(fixture.sent.last).jsonBody()["reportFraud"] == nil)
    }

    @Test func `updateChallenge passes the server's refusal through`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        fixture.transport.on("POST", path + "/challenge", status: 400, json: """
            {"error":"invalid_verification_code","errorCode":"invalid_verification_code","errorDescription":"Wrong code."}
            """)
        let response = await fixture.assent.push.updateChallenge(challengeId: "c", approved: true, verificationCode: "1")
        #expect(response.data == nil && response.errorCode == "invalid_verification_code" && response.error == "Wrong code.")
    }

    @Test func `updateChallenge without a local key is credential_not_found`() async {
        let fixture = PushFixture()
        let response = await fixture.assent.push.updateChallenge(challengeId: "c", approved: false)
        #expect(response.errorCode == "credential_not_found" && fixture.sent.isEmpty)
    }
}
