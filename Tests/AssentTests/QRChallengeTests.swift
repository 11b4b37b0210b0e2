import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Foundation
import Testing

/// Claiming and answering QR challenges on the wire, and reading QR payloads, against a fake transport.
@Suite struct QRChallengeTests {
    private let path = PushFixture.qrPath
    private let id = PushFixture.challengeID

    // MARK: Claim

    @Test func `claimChallenge posts the challenge signed with the bound claim message and returns the context`() async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge/claim", json: PushFixture.claimJSON)
        let response = await fixture.assent.qr.claimChallenge(challengeId: id)
        #expect(!response.isError, "\(response.error ?? "")")
        #expect(response.data == ClaimedChallenge(
            challengeId: id, success: true, ipAddress: "198.51.100.4", userAgent: "KioskBrowser/1.0",
            actionCode: "kioskSignIn", idempotencyKey: "idem-7",
            custom: ["terminal": .string("Lobby 2"), "floor": .number(3)],
            user: ChallengeUser(custom: ["tier": .string("gold")]), location: "Wellington, New Zealand"))

        let request = try #require(fixture.sent.first)
        #expect(fixture.sent.count == 1)
        #expect(request.method == "POST" && request.url.query == nil)
        #expect(request.url.absoluteString == "http://assent.test/v1/client/user-authenticators/qr-code/challenge/claim")
        #expect(request.header("Authorization") == PushFixture.tenantAuthorization)
        #expect(request.header("Content-Type") == "application/json")
        let body = try request.jsonBody()
        #expect(Set(body.keys) == ["challengeId", "publicKey", "signature"])
        #expect(body["challengeId"] as? String == id && body["publicKey"] as? String == publicKey)
        let claim = SignedMessage.claim(credentialId: "ua_1", challengeId: id)
        #expect(claim == "assent-bound-v1\nclaim\nua_1\n\(id)")
        #expect(verifies(signature: body["signature"] as? String, message: claim, publicKey: publicKey))
        #expect(!verifies(signature: body["signature"] as? String, message: id, publicKey: publicKey))
    }

    @Test func `a claim with only success decodes, with an empty IP address and user agent`() async throws {
        // ipAddress and userAgent are plain strings, as the QR document marks them required; assentd always sends
        // them, and an answer that lacks them (an older server) still decodes.
        let fixture = PushFixture()
        try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge/claim", json: #"{"success":true}"#)
        let response = await fixture.assent.qr.claimChallenge(challengeId: id)
        #expect(response.data == ClaimedChallenge(challengeId: id, success: true, ipAddress: "", userAgent: ""))
    }

    @Test func `a claim answer without success is a decoding error`() async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge/claim", json: #"{"ipAddress":"1.2.3.4"}"#)
        #expect(await fixture.assent.qr.claimChallenge(challengeId: id).errorCode == "decoding_error")
    }

    @Test(arguments: [
        (410, "challenge_closed", "The challenge has expired or was already claimed."),
        (403, "forbidden", "This challenge is for another user."),
        (401, "invalid_credential", "Unknown credential."),
        (401, "invalid_signature", "The signature does not verify over this challenge."),
        (404, "not_found", "No such challenge."),
    ])
    func `a refused claim passes the server's code and description through`(
        status: Int, code: String, description: String
    ) async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge/claim", status: status, json: """
            {"error":"\(code)","errorCode":"\(code)","errorDescription":"\(description)"}
            """)
        let response = await fixture.assent.qr.claimChallenge(challengeId: id)
        #expect(response.data == nil && response.errorCode == code && response.error == description)
    }

    @Test func `claiming while the server is unreachable is network_error`() async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        fixture.transport.unreachable("POST", path + "/challenge/claim")
        let response = await fixture.assent.qr.claimChallenge(challengeId: id)
        #expect(response.errorCode == "network_error" && response.error == "Could not connect to the server.")
    }

    @Test func `claiming without a QR key is credential_not_found, even with a push key`() async throws {
        let fixture = PushFixture()
        try fixture.enrol()
        let response = await fixture.assent.qr.claimChallenge(challengeId: id)
        #expect(response.errorCode == "credential_not_found" && fixture.sent.isEmpty)
    }

    // MARK: Claim by payload

    @Test(arguments: [
        "assent://qr?tenant=acme~~&challenge=\(PushFixture.challengeID)",
        "assent://qr?challenge=\(PushFixture.challengeID)&tenant=acme%7E%7E",
        "assent://qr?challenge=\(PushFixture.challengeID)",
        PushFixture.challengeID,
        "  \(PushFixture.challengeID)\n",
        "assent://qr?tenant=acme~~&challenge=\(PushFixture.challengeID)\n",
    ])
    func `claimChallenge(payload:) claims the challenge a payload for this tenant names`(payload: String) async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge/claim", json: PushFixture.claimJSON)
        let response = await fixture.assent.qr.claimChallenge(payload: payload)
        #expect(response.data?.challengeId == id && response.data?.actionCode == "kioskSignIn", "\(response.error ?? "")")
        let body = try #require(fixture.sent.first).jsonBody()
        #expect(body["challengeId"] as? String == id)
        #expect(verifies(
            signature: body["signature"] as? String, message: SignedMessage.claim(credentialId: "ua_1", challengeId: id),
            publicKey: publicKey))
        #expect(!verifies(signature: body["signature"] as? String, message: id, publicKey: publicKey))
    }

    @Test func `the server's own payload text round-trips through claimChallenge(payload:)`() async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge/claim", json: PushFixture.claimJSON)
        let text = QRPayload(tenantID: PushFixture.tenantID, challengeID: id).text
        #expect(text == "assent://qr?tenant=acme~~&challenge=\(id)")
        #expect(await fixture.assent.qr.claimChallenge(payload: text).data?.challengeId == id)
    }

    @Test func `a payload naming another tenant is tenant_mismatch and nothing is signed or sent`() async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        let response = await fixture.assent.qr.claimChallenge(payload: "assent://qr?tenant=other&challenge=\(id)")
        #expect(response.errorCode == "tenant_mismatch" && response.errorCode == AssentErrorCode.tenantMismatch)
        #expect(response.error?.contains("'other'") == true && response.error?.contains("'acme~~'") == true)
        #expect(response.data == nil && fixture.sent.isEmpty)
    }

    @Test(arguments: [
        "", "hello", "https://example.com/?challenge=\(PushFixture.challengeID)",
        "assent://qr?tenant=acme~~", "assent://qr?tenant=acme~~&challenge=XYZ",
        "assent://push?challenge=\(PushFixture.challengeID)", String(PushFixture.challengeID.dropLast()),
        PushFixture.challengeID.uppercased(),
    ])
    func `text that is not a QR payload is invalid_qr_payload and nothing is sent`(payload: String) async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        let response = await fixture.assent.qr.claimChallenge(payload: payload)
        #expect(response.errorCode == "invalid_qr_payload" && response.data == nil)
        #expect(fixture.sent.isEmpty)
    }

    @Test func `a payload is checked before the key, so a foreign code is refused even before enrolment`() async {
        let fixture = PushFixture()
        let response = await fixture.assent.qr.claimChallenge(payload: "assent://qr?tenant=other&challenge=\(id)")
        #expect(response.errorCode == "tenant_mismatch")
    }

    // MARK: Answer

    @Test(arguments: [(true, nil as String?), (false, nil), (true, "123456"), (false, "99")])
    func `updateChallenge posts to qr-code challenge with the bound signature`(
        approved: Bool, code: String?
    ) async throws {
        let fixture = PushFixture()
        let publicKey = try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":\#(approved)}"#)
        let response = await fixture.assent.qr.updateChallenge(challengeId: id, approved: approved, verificationCode: code)
        #expect(response.data == true && !response.isError, "\(response.error ?? "")")

        let request = try #require(fixture.sent.first)
        #expect(fixture.sent.count == 1)
        #expect(request.method == "POST" && request.url.path == path + "/challenge" && request.url.query == nil)
        #expect(request.header("Authorization") == PushFixture.tenantAuthorization)
        let body = try request.jsonBody()
        #expect(body["challengeId"] as? String == id && body["publicKey"] as? String == publicKey)
        #expect(body["approved"] as? Bool == approved)
        #expect(body["verificationCode"] as? String == code)
        let decision = "assent-bound-v1\n\(approved ? "approve" : "deny")\nua_1\n\(id)\n\(code ?? "")"
        #expect(verifies(signature: body["boundSignature"] as? String, message: decision, publicKey: publicKey))
        #expect(body["signature"] as? String == body["boundSignature"] as? String)
        let flipped = SignedMessage.decision(credentialId: "ua_1", challengeId: id, approved: !approved, verificationCode: code)
        #expect(!verifies(signature: body["boundSignature"] as? String, message: flipped, publicKey: publicKey))
    }

    @Test(arguments: [(403, "forbidden"), (410, "challenge_closed"), (401, "invalid_credential")])
    func `a refused answer passes the server's code through`(status: Int, code: String) async throws {
        let fixture = PushFixture()
        try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge", status: status, json: """
            {"error":"\(code)","errorCode":"\(code)","errorDescription":"Refused: \(code)."}
            """)
        let response = await fixture.assent.qr.updateChallenge(challengeId: id, approved: true)
        #expect(response.data == nil && response.errorCode == code && response.error == "Refused: \(code).")
    }

    @Test func `updateChallenge uses the QR key, not the push key`() async throws {
        let fixture = PushFixture()
        let pushKey = try fixture.enrol()
        let qrKey = try fixture.enrolQR()
        fixture.transport.on("POST", path + "/challenge", json: #"{"isVerified":true}"#)
        _ = await fixture.assent.qr.updateChallenge(challengeId: id, approved: true)
        let body = try #require(fixture.sent.first).jsonBody()
        #expect(body["publicKey"] as? String == qrKey && qrKey != pushKey)
        #expect(fixture.transport.requests(
            "POST", PushFixture.credentialPath + "/challenge").isEmpty, "nothing goes to the push endpoint")
    }

    @Test func `updateChallenge without a QR key is credential_not_found`() async {
        let fixture = PushFixture()
        let response = await fixture.assent.qr.updateChallenge(challengeId: id, approved: false)
        #expect(response.errorCode == "credential_not_found" && fixture.sent.isEmpty)
    }
}
