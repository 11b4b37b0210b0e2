import Assent
import AssentCrypto
import AssentTesting
import AssentWire
import Foundation
import Testing

/// The ``Attester`` seam on the wire: enrolments fetch a challenge with the enrolment token and carry the attester's
/// statement over the binding hash of exactly the public key they send; approvals carry its assertion over SHA-256 of
/// the bound decision message; without an attester nothing changes.
@Suite struct AttestationTests {
    static let challengePath = "/v1/client/attestation/challenge"
    static let challengeJSON = #"{"challenge":"Q2hhbGxlbmdlLW9uZQ","expiresAt":1796018855}"#
    static let enrolledJSON = #"{"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"t"}"#

    @Test(arguments: [PushFixture.credentialPath, PushFixture.qrPath])
    func `an enrolment with an attester sends a statement bound to the challenge and the key it sends`(path: String) async throws {
        let attester = FakeAttester()
        let fixture = PushFixture(attester: attester)
        fixture.transport.on("POST", Self.challengePath, json: Self.challengeJSON)
        fixture.transport.on("POST", path, json: Self.enrolledJSON)
        let response = path == PushFixture.qrPath
            ? await fixture.assent.qr.addCredential(token: "enrol.jwt")
            : await fixture.assent.push.addCredential(token: "enrol.jwt")
        #expect(!response.isError, "\(response.error ?? "")")

        #expect(fixture.sent.map { "\($0.method) \($0.url.path)" } == ["POST \(Self.challengePath)", "POST \(path)"])
        #expect(fixture.sent[0].header("Authorization") == "Bearer enrol.jwt")
        #expect(fixture.sent[0].body == nil)
        let body = try fixture.sent[1].jsonBody()
        let publicKey = try #require(body["publicKey"] as? String)
        let binding = AttestationBinding.bindingHash(challenge: "Q2hhbGxlbmdlLW9uZQ", publicKey: publicKey)
        #expect(binding == SHA256.hash(Array("assent-attest-v1|Q2hhbGxlbmdlLW9uZQ|\(publicKey)".utf8)))
        let call = try #require(attester.recorded.attest.first)
        #expect(attester.recorded.attest.count == 1)
        #expect(call.challenge == "Q2hhbGxlbmdlLW9uZQ" && call.bindingHash == binding)
        let attestation = try #require(body["attestation"] as? [String: Any])
        #expect(attestation["format"] as? String == "android-key")
        #expect(attestation["challenge"] as? String == "Q2hhbGxlbmdlLW9uZQ")
        #expect(attestation["certificateChain"] as? [String] == [Base64.encode(binding)])
    }

    @Test func `without an attester an enrolment asks for no challenge and sends no attestation`() async throws {
        let fixture = PushFixture()
        fixture.transport.on("POST", PushFixture.credentialPath, json: Self.enrolledJSON)
        let response = await fixture.assent.push.addCredential(token: "enrol.jwt")
        #expect(!response.isError, "\(response.error ?? "")")
        #expect(fixture.sent.map(\.url.path) == [PushFixture.credentialPath])
        #expect(try fixture.sent[0].jsonBody()["attestation"] == nil)
    }

    @Test func `an attester that fails is attestation_failed and nothing is enrolled`() async throws {
        let fixture = PushFixture(attester: FakeAttester(fails: true))
        fixture.transport.on("POST", Self.challengePath, json: Self.challengeJSON)
        let response = await fixture.assent.push.addCredential(token: "enrol.jwt")
        #expect(response.errorCode == AssentErrorCode.attestationFailed)
        #expect(response.error?.contains("the platform refused to attest") == true)
        #expect(fixture.sent.map(\.url.path) == [Self.challengePath])
    }

    @Test func `a statement naming another challenge is attestation_failed and nothing is enrolled`() async throws {
        let fixture = PushFixture(attester: FakeAttester(statementChallenge: "another"))
        fixture.transport.on("POST", Self.challengePath, json: Self.challengeJSON)
        let response = await fixture.assent.push.addCredential(token: "enrol.jwt")
        #expect(response.errorCode == AssentErrorCode.attestationFailed)
        #expect(fixture.sent.map(\.url.path) == [Self.challengePath])
    }

    @Test func `the server's attestation refusals pass through with their codes`() async throws {
        for (status, code) in [(403, "attestation_required"), (400, "attestation_invalid"),
                               (400, "attestation_challenge_invalid")] {
            let fixture = PushFixture(attester: FakeAttester())
            fixture.transport.on("POST", Self.challengePath, json: Self.challengeJSON)
            fixture.transport.on("POST", PushFixture.credentialPath, status: status, json: """
                {"error":"\(code)","errorCode":"\(code)","errorDescription":"refused: \(code)"}
                """)
            let response = await fixture.assent.push.addCredential(token: "enrol.jwt")
            #expect(response.errorCode == code && response.error == "refused: \(code)")
        }
        #expect([AssentErrorCode.attestationRequired, AssentErrorCode.attestationInvalid,
                 AssentErrorCode.attestationChallengeInvalid]
            == ["attestation_required", "attestation_invalid", "attestation_challenge_invalid"])
    }

    @Test func `a challenge the server refuses stops the enrolment before the attester is asked`() async throws {
        let attester = FakeAttester()
        let fixture = PushFixture(attester: attester)
        fixture.transport.on("POST", Self.challengePath, status: 403, json: """
            {"error":"forbidden","errorCode":"forbidden","errorDescription":"The token may not enrol."}
            """)
        let response = await fixture.assent.push.addCredential(token: "sign-in.jwt")
        #expect(response.errorCode == "forbidden")
        #expect(attester.recorded.attest.isEmpty)
        #expect(fixture.sent.map(\.url.path) == [Self.challengePath])
    }

    @Test(arguments: [true, false])
    func `an approval carries the attester's assertion over SHA-256 of the bound decision message`(approved: Bool) async throws {
        let attester = FakeAttester(assertion: "bzJhc3NlcnRpb24=")
        let fixture = PushFixture(attester: attester)
        try fixture.enrol()
        fixture.transport.on("POST", PushFixture.credentialPath + "/challenge", json: #"{"isVerified":true}"#)
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_42", approved: approved, verificationCode: "12")
        #expect(response.data == true, "\(response.error ?? "")")
        let decision = SignedMessage.decision(credentialId: "ua_1", challengeId: "ch_42", approved: approved, verificationCode: "12")
        #expect(attester.recorded.assertion == [SHA256.hash(Array(decision.utf8))])
        #expect(try fixture.sent[0].jsonBody()["appAttestAssertion"] as? String == "bzJhc3NlcnRpb24=")
    }

    @Test func `an attester that makes no assertion leaves the approval as it was`() async throws {
        let attester = FakeAttester(assertion: nil)
        let fixture = PushFixture(attester: attester)
        try fixture.enrol()
        fixture.transport.on("POST", PushFixture.credentialPath + "/challenge", json: #"{"isVerified":true}"#)
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_42", approved: true)
        #expect(response.data == true, "\(response.error ?? "")")
        #expect(attester.recorded.assertion.count == 1)
        #expect(try fixture.sent[0].jsonBody().keys.contains("appAttestAssertion") == false)
    }

    @Test func `an assertion that fails is attestation_failed and no answer is sent`() async throws {
        let fixture = PushFixture(attester: FakeAttester(fails: true))
        try fixture.enrol()
        fixture.transport.on("POST", PushFixture.credentialPath + "/challenge", json: #"{"isVerified":true}"#)
        let response = await fixture.assent.push.updateChallenge(challengeId: "ch_42", approved: true)
        #expect(response.errorCode == AssentErrorCode.attestationFailed)
        #expect(fixture.sent.isEmpty)
    }
}
