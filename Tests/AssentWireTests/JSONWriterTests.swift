import AssentWire
import Foundation
import Testing

/// ``JSONWriter`` against Foundation: every response the server writes by hand is byte for byte what `JSONEncoder`
/// writes for the same value with the server's `.withoutEscapingSlashes` and `.sortedKeys` (which fixes the key order:
/// on Linux `JSONEncoder` otherwise writes keys in hash order), from the golden fixtures and from values whose strings
/// need every escape.
@Suite struct JSONWriterTests {
    /// What the server's `JSONEncoder` wrote.
    private static func foundation(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Expects the writer to write what `JSONEncoder` writes for `value`.
    private static func same<T: Encodable & WireEncodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try foundation(value)
        let actual = written(value)
        #expect(actual == expected, sourceLocation: sourceLocation)
    }

    /// `Fixtures/<name>.json` of this target.
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name).json")
    }

    private static func written(_ value: some WireEncodable) -> String {
        String(decoding: JSONWriter.encode(value), as: UTF8.self)
    }

    /// Decodes the fixture `name` as `T`, then expects the writer and `JSONEncoder` to write the same bytes.
    private static func sameAsFoundation<T: Codable & WireEncodable>(
        _ type: T.Type, _ name: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fixture = try Data(contentsOf: fixture(name ?? String(describing: T.self)))
        let value = try JSONDecoder().decode(T.self, from: fixture)
        try same(value, sourceLocation: sourceLocation)
        #expect(try Golden.parse(Data(JSONWriter.encode(value))) == Golden.parse(fixture), sourceLocation: sourceLocation)
    }

    /// Text that needs every kind of escape, and some that needs none (slashes, non-ASCII, emoji).
    static let awkward = "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f}\u{7f} é 日本 😀 </script>"

    @Test func `every response fixture is written by its table byte for byte as JSONEncoder writes it`() throws {
        try Self.sameAsFoundation(TrackResponse.self)
        try Self.sameAsFoundation(ValidateResponse.self)
        try Self.sameAsFoundation(ValidateResponse.self, "ValidateResponse-invalid")
        try Self.sameAsFoundation(ErrorResponse.self)
        try Self.sameAsFoundation(PushChallengeResponse.self)
        try Self.sameAsFoundation(PushChallengeResponse.self, "PushChallengeResponse-none")
        try Self.sameAsFoundation(UpdateChallengeResponse.self)
        try Self.sameAsFoundation(StartPushChallengeResponse.self)
        try Self.sameAsFoundation(VerifyPushResponse.self)
        try Self.sameAsFoundation(StartQRChallengeResponse.self)
        try Self.sameAsFoundation(VerifyQRResponse.self)
        try Self.sameAsFoundation(ClaimChallengeResponse.self)
        try Self.sameAsFoundation(ClaimChallengeResponse.self, "ClaimChallengeResponse-anonymous")
        try Self.sameAsFoundation(AddCredentialResponse.self)
        try Self.sameAsFoundation(CredentialResponse.self)
        try Self.sameAsFoundation(RemoveCredentialResponse.self)
        try Self.sameAsFoundation(SigningMessageResponse.self)
        try Self.sameAsFoundation(UpdateCredentialResponse.self)
        try Self.sameAsFoundation(ActionResponse.self)
        try Self.sameAsFoundation(UserResponse.self)
        try Self.sameAsFoundation(UserAuthenticatorResponse.self)
        try Self.sameAsFoundation(EnrollAuthenticatorResponse.self)
        try Self.sameAsFoundation(ChallengeTimelineResponse.self)
        try Self.sameAsFoundation(ActivationResponse.self)
        try Self.sameAsFoundation(ActivationListResponse.self)
        try Self.sameAsFoundation(CreateActivationResponse.self)
        try Self.sameAsFoundation(ActivationStatusResponse.self)
        try Self.sameAsFoundation(VaultUnlockResponse.self)
        try Self.sameAsFoundation(AttestationChallengeResponse.self)
        try Self.sameAsFoundation(VerifySignatureResponse.self)
        try Self.sameAsFoundation(DeleteUserResponse.self)
        try Self.sameAsFoundation(DeleteUserResponse.self, "DeleteUserResponse-unknown")
        try Self.sameAsFoundation(ResetUserPushResponse.self)
        try Self.sameAsFoundation(DeleteAuthenticatorResponse.self)
        try Self.sameAsFoundation(PushSettingsResponse.self)
        try Self.sameAsFoundation(PushSettingsResponse.self, "PushSettingsResponse-fcm")
        try Self.sameAsFoundation(HealthResponse.self)
        try Self.sameAsFoundation(HealthUnavailableResponse.self)
        try Self.sameAsFoundation(LivenessResponse.self)
        try Self.sameAsFoundation(ReadinessResponse.self)
        try Self.sameAsFoundation(QRCodeSocket.ChallengeCreated.self, "QRCodeSocket-ChallengeCreated")
        try Self.sameAsFoundation(QRCodeSocket.StateChange.self, "QRCodeSocket-StateChange")
        try Self.sameAsFoundation(QRCodeSocket.StateChange.self, "QRCodeSocket-StateChange-claimed")
        try Self.sameAsFoundation(QRCodeSocket.Failure.self, "QRCodeSocket-Failure")
        try Self.sameAsFoundation(QRCodeSocket.Failure.self, "QRCodeSocket-Failure-invalid")
    }

    /// Reads the request fixture `name` through the type's table, then expects the table to write it back as
    /// `JSONEncoder` writes the value (so the table names every property, as Swift synthesizes them) and as the fixture
    /// holds it.
    private static func readsAndWritesBack<T: WireSchema & WireDecodable & Encodable>(
        _ type: T.Type, _ name: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fixture = try Data(contentsOf: fixture(name ?? String(describing: T.self)))
        let value = try T(reading: JSONObjectFields(json: Array(fixture)))
        try same(value, sourceLocation: sourceLocation)
        #expect(try Golden.parse(Data(JSONWriter.encode(value))) == Golden.parse(fixture), sourceLocation: sourceLocation)
    }

    @Test func `every request fixture is read by its table and written back as JSONEncoder writes it`() throws {
        try Self.readsAndWritesBack(ActivationStatusRequest.self)
        try Self.readsAndWritesBack(AddCredentialRequest.self)
        try Self.readsAndWritesBack(ClaimChallengeRequest.self)
        try Self.readsAndWritesBack(CreateActivationRequest.self)
        try Self.readsAndWritesBack(RemoveCredentialRequest.self)
        try Self.readsAndWritesBack(StartPushChallengeRequest.self)
        try Self.readsAndWritesBack(StartQRChallengeRequest.self)
        try Self.readsAndWritesBack(UpdateChallengeRequest.self)
        try Self.readsAndWritesBack(UpdateCredentialRequest.self)
        try Self.readsAndWritesBack(VaultUnlockRequest.self)
        try Self.readsAndWritesBack(VerifyPushRequest.self)
        try Self.readsAndWritesBack(VerifyQRRequest.self)
        try Self.readsAndWritesBack(VerifySignatureRequest.self)
        try Self.readsAndWritesBack(VerifySignatureRequest.self, "VerifySignatureRequest-get")
        try Self.readsAndWritesBack(QRCodeSocket.CreateChallenge.self, "QRCodeSocket-CreateChallenge")
    }

    /// The server API's requests, every field set (null where null means "clear"), and the types without a fixture.
    @Test func `server API requests and pages are written as JSONEncoder writes them, every field set`() throws {
        let text = Self.awkward
        var track = TrackRequest()
        track.idempotencyKey = text
        track.redirectUrl = text
        track.redirectToSettings = true
        track.ipAddress = text
        track.userAgent = text
        track.deviceId = text
        track.location = text
        track.scope = text
        track.email = text
        track.phoneNumber = text
        track.username = text
        track.locale = text
        track.custom = ["a": .array([.number(1), .null])]
        track.customDomain = text
        track.challengeId = text
        try Self.same(track)
        try Self.same(TrackRequest())
        var user = UpdateUserRequest()
        user.email = .some(nil)
        user.emailVerified = false
        user.phoneNumber = "+64"
        user.phoneNumberVerified = true
        user.username = .some(nil)
        user.displayName = text
        user.locale = .some(nil)
        user.custom = .some(nil)
        try Self.same(user)
        user.custom = ["k": .string(text)]
        try Self.same(user)
        var push = UpdatePushSettingsRequest()
        push.provider = "apns"
        push.webhookUrl = .some(nil)
        push.webhookBestEffort = true
        push.apnsPrivateKey = text
        push.apnsKeyId = "k"
        push.apnsTeamId = "t"
        push.apnsTopic = "b"
        push.apnsEnvironment = "sandbox"
        push.removeApns = false
        push.removeFcm = true
        push.fcmServiceAccount = .object(["project_id": .string("p")])
        try Self.same(push)
        var enroll = EnrollAuthenticatorRequest(verificationMethod: .emailOTP)
        enroll.email = text
        enroll.phoneNumber = text
        enroll.isDefault = true
        try Self.same(enroll)
        try Self.same(UpdateActionRequest(state: .reviewSucceeded))
        var validate = ValidateRequest(token: text)
        validate.userId = text
        validate.action = text
        try Self.same(validate)
        try Self.same(AnonymousQRSettings(anonymousActionCodes: ["a", "b"], anonymousApprovalFactor: .some(nil)))
        try Self.same(AnonymousQRSettings(anonymousActionCodes: [], anonymousApprovalFactor: "possession_biometry"))
        let audit = AuditListResponse(entries: [
            .init(sequence: 1, at: text, kind: text, actor: "cli", subject: nil, details: [text: text, "b": ""], mac: "00"),
            .init(sequence: Int64.max, at: "", kind: "", actor: "", subject: text, details: [:], mac: ""),
        ], nextCursor: text)
        try Self.same(audit)
        try Self.same(AuditListResponse(entries: [], nextCursor: nil))
    }

    @Test func `strings are escaped as JSONEncoder escapes them, in every field`() throws {
        let text = Self.awkward
        let track = TrackResponse(
            state: .challengeRequired, idempotencyKey: text, url: "https://x.test/challenge?token=" + text, token: text,
            isEnrolled: true, enrolledVerificationMethods: [.push, VerificationMethod(rawValue: text)],
            allowedVerificationMethods: [], defaultVerificationMethod: .push, ruleIds: [text, ""])
        try Self.same(track)
        let validate = ValidateResponse(
            isValid: false, state: .challengeFailed, stateUpdatedAt: text, userId: text, actionCode: text,
            idempotencyKey: text, verificationMethod: .device, error: text)
        try Self.same(validate)
        #expect(Self.written(ValidateResponse(isValid: true)) == (try Self.foundation(ValidateResponse(isValid: true))))
        let error = ErrorResponse(errorCode: text, errorDescription: text)
        try Self.same(error)
        var pending = PushChallengeResponse(userAuthenticatorId: text)
        try Self.same(pending)
        pending.challengeId = text
        pending.userId = text
        pending.deviceId = text
        pending.userAgent = text
        pending.ipAddress = text
        pending.expiresAt = -9_223_372_036_854_775_807
        pending.verificationCodeRequired = false
        try Self.same(pending)
        pending.expiresAt = Int64.max
        try Self.same(pending)
        let start = StartPushChallengeResponse(
            challengeId: text, expiresAt: nil, verificationCode: text,
            deliveryResults: [DeliveryResult(userAuthenticatorId: text), DeliveryResult(userAuthenticatorId: "b", errorCode: text)])
        try Self.same(start)
        let empty = StartPushChallengeResponse(challengeId: "", expiresAt: nil, verificationCode: nil, deliveryResults: [])
        try Self.same(empty)
        let verify = VerifyPushResponse(isVerified: true, isConsumed: false, accessToken: text)
        try Self.same(verify)
    }

    /// Custom data: any JSON value, nested, with awkward keys and numbers, byte for byte.
    @Test func `free-form custom data is written as the same JSON value`() throws {
        let custom: [String: JSONValue] = [
            "n": .number(1), "half": .number(0.5), "big": .number(1e300), "neg": .number(-42), "tiny": .number(.leastNonzeroMagnitude),
            "whole": .number(9_007_199_254_740_992), "flag": .bool(false), "nothing": .null, Self.awkward: .string(Self.awkward),
            "list": .array([.number(3), .string(""), .array([]), .object([:])]),
            "nested": .object(["a": .object(["b": .array([.bool(true), .null])])]),
        ]
        var pending = PushChallengeResponse(userAuthenticatorId: "a")
        pending.custom = custom
        pending.user = ChallengeUser(custom: custom)
        try Self.same(pending)
        #expect(try Golden.parse(Data(JSONWriter.encode(pending))) == Golden.parse(JSONEncoder().encode(pending)))
        let claim = ClaimChallengeResponse(
            success: true, ipAddress: nil, userAgent: nil, actionCode: "signIn", idempotencyKey: nil,
            custom: ["only": .array([.number(1.25), .string("x/y")])], user: ChallengeUser(custom: nil))
        try Self.same(claim)
        for number in [0.1, -2.5, 1e21, 1.5e-7, 123456.789, 1e15, -1e16, 0.30000000000000004] {
            var writer = JSONWriter()
            writer.value(JSONValue.number(number))
            #expect(String(decoding: writer.bytes, as: UTF8.self) == (try Self.foundation(JSONValue.number(number))))
        }
    }
}
