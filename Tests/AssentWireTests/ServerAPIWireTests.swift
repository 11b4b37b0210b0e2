import AssentWire
import Testing

/// The server API's models (`/v1/users/...`, `/v1/validate`, the timeline, errors) against golden JSON.
@Suite struct ServerAPIWireTests {
    @Test func `TrackResponse carries the state, the token and the methods`() throws {
        let response = try Golden.roundTrip(TrackResponse.self)
        #expect(response.state == .challengeRequired && response.isEnrolled)
        #expect(response.token.split(separator: ".").count == 3 && response.url.hasSuffix("token=" + response.token))
        #expect(response.enrolledVerificationMethods == [.push, .device] && response.defaultVerificationMethod == .push)
        #expect(response.ruleIds.isEmpty)
    }

    @Test func `ActionResponse carries the state, the method and the output`() throws {
        let response = try Golden.roundTrip(ActionResponse.self)
        #expect(response.state == .challengeSucceeded && response.verificationMethod == .push)
        #expect(response.userId == "alice" && response.actionCode == "signIn" && response.rules.isEmpty)
        #expect(response.output["custom"] == .object(["amount": .number(120.5)]))
    }

    @Test func `ValidateResponse names the action twice, as action and actionCode`() throws {
        let response = try Golden.roundTrip(ValidateResponse.self)
        #expect(response.isValid && response.state == .challengeSucceeded && response.verificationMethod == .push)
        #expect(response.action == "signIn" && response.actionCode == "signIn" && response.userId == "alice")
        let refused = try Golden.roundTrip(ValidateResponse.self, "ValidateResponse-invalid")
        #expect(!refused.isValid && refused.error == "The token has already been validated." && refused.state == nil)
    }

    @Test func `UserResponse carries the profile, custom data and methods`() throws {
        let response = try Golden.roundTrip(UserResponse.self)
        #expect(response.isEnrolled && response.emailVerified && !response.phoneNumberVerified)
        #expect(response.locale == "en-NZ" && response.custom == ["tier": .string("gold"), "since": .number(2019)])
        #expect(response.allowedVerificationMethods == [.push, .device])
    }

    @Test func `UserAuthenticatorResponse carries the device, its errors and its lease`() throws {
        let response = try Golden.roundTrip(UserAuthenticatorResponse.self)
        #expect(response.verificationMethod == .push && response.devicePlatform == "IOS" && response.isDefault)
        #expect(response.lastVerifiedAt == "2026-12-01T08:00:00.000Z" && response.errorCode == "push_token_unregistered")
        #expect(response.expiresAt == "2027-03-01T08:00:00.000Z")
    }

    @Test func `EnrollAuthenticatorResponse wraps the authenticator`() throws {
        let response = try Golden.roundTrip(EnrollAuthenticatorResponse.self)
        #expect(response.authenticator.verificationMethod == .sms && response.authenticator.phoneNumber == "+64211234567")
        #expect(response.authenticator.lastVerifiedAt == nil && !response.authenticator.isDefault)
    }

    @Test func `ChallengeTimelineResponse lists deliveries and events`() throws {
        let response = try Golden.roundTrip(ChallengeTimelineResponse.self)
        #expect(response.deliveries.map(\.provider) == ["apns", "fcm"])
        #expect(response.deliveries[1].attempts == 4 && response.deliveries[1].lastError == "UNAVAILABLE")
        #expect(response.timeline.map(\.event) == ["created", "delivery_attempt"])
        #expect(response.timeline[1].status == 200 && response.timeline[0].provider == nil)
    }

    @Test func `ErrorResponse has error, errorCode and errorDescription`() throws {
        let response = try Golden.roundTrip(ErrorResponse.self)
        #expect(response == ErrorResponse(
            errorCode: "invalid_credential",
            errorDescription: "The credential is not known; it may have been removed. Enrol again."))
    }
}

/// The answers the server API wrote by hand before they had tables: deleting a user or an authenticator, lifting a
/// push lock, the push settings.
@Suite struct ServerAPIAnswerWireTests {
    @Test func `DeleteUserResponse says whether there was a user`() throws {
        #expect(try Golden.roundTrip(DeleteUserResponse.self) == DeleteUserResponse(userId: "alice", deleted: true))
        let unknown = try Golden.roundTrip(DeleteUserResponse.self, "DeleteUserResponse-unknown")
        #expect(unknown.userId == "nobody" && !unknown.deleted)
    }

    @Test func `ResetUserPushResponse and DeleteAuthenticatorResponse always say true`() throws {
        #expect(try Golden.roundTrip(ResetUserPushResponse.self) == ResetUserPushResponse(userId: "alice"))
        #expect(try Golden.roundTrip(DeleteAuthenticatorResponse.self)
            == DeleteAuthenticatorResponse(userAuthenticatorId: "3f2a9c1e-7b4d-4e8a-9c0f-1a2b3c4d5e6f"))
    }

    @Test func `PushSettingsResponse shows which credentials are configured, never a key`() throws {
        let apns = try Golden.roundTrip(PushSettingsResponse.self)
        #expect(apns.provider == "apns" && !apns.webhookBestEffort && apns.webhookUrl?.hasPrefix("https://") == true)
        #expect(apns.apns.configured && apns.apns.topic == "com.example.bank" && apns.apns.environment == "production")
        #expect(apns.fcm == PushSettingsResponse.FCM(configured: false))
        let fcm = try Golden.roundTrip(PushSettingsResponse.self, "PushSettingsResponse-fcm")
        #expect(fcm.webhookUrl == nil && fcm.webhookBestEffort && !fcm.apns.configured && fcm.fcm.projectId == "example-bank")
    }

    @Test func `PushSettingsResponse's parts are described in place, not as components of their own`() throws {
        guard case .object(let schema) = PushSettingsResponse.wireComponent, case .object(let properties)? = schema["properties"],
              case .object(let apns)? = properties["apns"]
        else { Issue.record("no object schema"); return }
        #expect(PushSettingsResponse.wireName == "PushSettings")
        #expect(apns["$ref"] == nil && apns["description"] == .string("APNs without the key."))
        #expect(apns["required"] == .array([.string("configured")]))
        #expect(PushSettingsResponse.wireReferences.isEmpty)
    }
}
