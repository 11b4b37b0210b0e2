import AssentWire
import Testing

/// The client API's models (`/v1/client/...`) against golden JSON.
@Suite struct ClientAPIWireTests {
    private static let challengeId = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    private static let qrChallengeId = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    private static let authenticatorId = "5b0f9a0e-3c1d-4f7e-9b2a-6d8e1f2a3b4c"

    // MARK: Credentials

    @Test func `AddCredentialRequest carries the key, the device and the Android key policy`() throws {
        let request = try Golden.roundTrip(AddCredentialRequest.self)
        #expect(request.publicKey.hasPrefix("MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"))
        #expect(request.devicePlatform == "android" && request.pushToken == "fcm-registration-token-1")
        #expect(request.userAuthenticationRequired == true && request.timeout == 30)
        #expect(request.authorizationType == "BIOMETRIC_OR_DEVICE_CREDENTIAL")
    }

    @Test func `AddCredentialResponse names the authenticator and its lease`() throws {
        let response = try Golden.roundTrip(AddCredentialResponse.self)
        #expect(response.userAuthenticatorId == Self.authenticatorId && response.userId == "alice")
        #expect(response.verifiedAt == "2026-11-30T06:02:35.123Z" && response.expiresAt == "2027-02-28T06:02:35.123Z")
    }

    @Test func `CredentialResponse has lastVerifiedAt and expiresAt as ISO-8601 strings`() throws {
        let response = try Golden.roundTrip(CredentialResponse.self)
        #expect(response.userAuthenticatorId == Self.authenticatorId && response.userId == "alice")
        #expect(response.lastVerifiedAt == "2026-12-01T08:00:00.000Z" && response.expiresAt == "2027-03-01T08:00:00.000Z")
    }

    @Test func `RemoveCredentialRequest and RemoveCredentialResponse`() throws {
        let request = try Golden.roundTrip(RemoveCredentialRequest.self)
        #expect(request.publicKey.hasPrefix("MFkw") && request.signature.hasPrefix("MEUCIQD"))
        #expect(try Golden.roundTrip(RemoveCredentialResponse.self).removedAuthenticatorId == Self.authenticatorId)
    }

    @Test func `SigningMessageResponse pairs the nonce's id with its message`() throws {
        let response = try Golden.roundTrip(SigningMessageResponse.self)
        #expect(response.challengeId == "4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a")
        #expect(response.message == "b7f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5")
    }

    @Test func `UpdateCredentialRequest and UpdateCredentialResponse`() throws {
        let request = try Golden.roundTrip(UpdateCredentialRequest.self)
        #expect(request.challengeId == "4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a")
        #expect(request.pushToken == "fcm-registration-token-2" && request.resetExpiry == true)
        let response = try Golden.roundTrip(UpdateCredentialResponse.self)
        #expect(response.lastVerifiedAt == "2026-12-01T08:00:00.000Z" && response.pushToken == "fcm-registration-token-2")
        #expect(response.expiresAt == "2027-03-01T08:00:00.000Z")
    }

    // MARK: Push challenges

    @Test func `PushChallengeResponse carries the context, numeric expiresAt and public custom data`() throws {
        let response = try Golden.roundTrip(PushChallengeResponse.self)
        #expect(response.userAuthenticatorId == Self.authenticatorId && response.challengeId == Self.challengeId)
        #expect(response.userId == "alice" && response.actionCode == "signIn" && response.deviceId == "browser-1")
        #expect(response.ipAddress == "203.0.113.7" && response.expiresAt == 1_796_019_155)
        #expect(response.custom?["amount"] == .number(120.5) && response.custom?["gift"] == .bool(false))
        #expect(response.custom?["items"] == .array([.number(1), .number(2)]) && response.custom?["note"] == .null)
        #expect(response.user == ChallengeUser(custom: ["tier": .string("gold")]))
        #expect(response.verificationCodeRequired == true)
    }

    @Test func `PushChallengeResponse with nothing pending writes challengeId and userId as null`() throws {
        let response = try Golden.roundTrip(PushChallengeResponse.self, "PushChallengeResponse-none")
        #expect(response == PushChallengeResponse(userAuthenticatorId: Self.authenticatorId))
    }

    @Test func `UpdateChallengeRequest carries the decision, the code and both signatures`() throws {
        let request = try Golden.roundTrip(UpdateChallengeRequest.self)
        #expect(request.challengeId == Self.challengeId && request.approved && request.verificationCode == "042")
        #expect(request.signature.hasPrefix("MEUCIQD") && request.boundSignature?.hasPrefix("MEQCIF") == true)
        #expect(try Golden.roundTrip(UpdateChallengeResponse.self).isVerified)
    }

    @Test func `StartPushChallengeRequest and StartPushChallengeResponse with delivery results`() throws {
        let request = try Golden.roundTrip(StartPushChallengeRequest.self)
        #expect(request.action == "signIn" && request.userAuthenticatorId == Self.authenticatorId)
        let response = try Golden.roundTrip(StartPushChallengeResponse.self)
        #expect(response.challengeId == Self.challengeId && response.verificationCode == "042")
        #expect(response.deliveryResults == [
            DeliveryResult(userAuthenticatorId: Self.authenticatorId),
            DeliveryResult(userAuthenticatorId: "c7d2e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f", errorCode: "push_token_unregistered"),
        ])
    }

    @Test func `VerifyPushRequest and VerifyPushResponse`() throws {
        #expect(try Golden.roundTrip(VerifyPushRequest.self).challengeId == Self.challengeId)
        let response = try Golden.roundTrip(VerifyPushResponse.self)
        #expect(response.isVerified && response.isConsumed && response.accessToken?.split(separator: ".").count == 3)
    }

    // MARK: QR challenges

    @Test func `StartQRChallengeRequest and StartQRChallengeResponse`() throws {
        let request = try Golden.roundTrip(StartQRChallengeRequest.self)
        #expect(request.action == "kioskSignIn" && request.custom == ["terminal": .string("Lobby 2"), "floor": .number(3)])
        let response = try Golden.roundTrip(StartQRChallengeResponse.self)
        #expect(response.challengeId == Self.qrChallengeId && response.deviceCode == "q8V7mJ2kR4tX9wZ1aB3cD5eF7gH9iK0l")
        #expect(response.qrPayload == "assent://qr?tenant=acme&challenge=\(Self.qrChallengeId)")
        #expect(QRPayload(text: try #require(response.qrPayload))?.challengeID == Self.qrChallengeId)
    }

    @Test func `VerifyQRRequest and VerifyQRResponse`() throws {
        #expect(try Golden.roundTrip(VerifyQRRequest.self).deviceCode == "q8V7mJ2kR4tX9wZ1aB3cD5eF7gH9iK0l")
        let response = try Golden.roundTrip(VerifyQRResponse.self)
        #expect(response.isClaimed && !response.isConsumed && !response.isVerified && response.accessToken == nil)
    }

    @Test func `ClaimChallengeRequest is signed over the challenge`() throws {
        let request = try Golden.roundTrip(ClaimChallengeRequest.self)
        #expect(request.challengeId == Self.qrChallengeId && request.signature.hasPrefix("MEUCIQD"))
    }

    @Test func `ClaimChallengeResponse carries the context with the tracked location`() throws {
        let response = try Golden.roundTrip(ClaimChallengeResponse.self)
        #expect(response.success && response.ipAddress == "198.51.100.4" && response.userAgent == "KioskBrowser/1.0")
        #expect(response.location == "Wellington, New Zealand")
        #expect(response.custom == ["terminal": .string("Lobby 2")] && response.user?.custom == ["tier": .string("gold")])
    }

    @Test func `ClaimChallengeResponse for an anonymous challenge writes location as null`() throws {
        let response = try Golden.roundTrip(ClaimChallengeResponse.self, "ClaimChallengeResponse-anonymous")
        #expect(response.location == nil && response.custom == nil && response.user == nil)
        #expect(response.actionCode == "kioskSignIn")
    }
}
