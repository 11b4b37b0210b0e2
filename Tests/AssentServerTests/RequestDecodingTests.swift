import AssentHTTP
@testable import AssentServer
import AssentServerCore
import AssentWire
import Foundation
import Testing

/// The server's one way of reading request bodies (`RequestDecoding` over `AssentWire`'s `JSONReader`) with the rules
/// every handler relies on: both spellings of a field, unknown fields ignored, an empty body is `{}`, the media type, and refusals
/// that name the field.
@Suite struct RequestDecodingTests {
    private let decoder = WireRequestDecoding()

    private func request(_ body: String, contentType: String? = "application/json") -> HTTPRequest {
        var headers = HTTPHeaders()
        if let contentType { headers.replace("Content-Type", contentType) }
        return HTTPRequest(method: "POST", path: "/", headers: headers, body: Array(body.utf8))
    }

    private func decode<T: WireDecodable>(_ type: T.Type, _ body: String, contentType: String? = "application/json") throws -> T {
        try decoder.decode(type, from: request(body, contentType: contentType))
    }

    /// The refusal's code and description.
    private func refusal<T: WireDecodable>(_ type: T.Type, _ body: String, contentType: String? = "application/json") -> (String, String)? {
        do {
            _ = try decode(type, body, contentType: contentType)
            return nil
        } catch let error as AssentError {
            return (error.code.wire, error.reason)
        } catch {
            return ("unexpected", "\(error)")
        }
    }

    @Test func `an enrolment names its signature scheme, bound or compatible, or none`() throws {
        #expect(try decode(AddCredentialRequest.self, #"{"publicKey":"k","signatureScheme":"bound"}"#).signatureScheme == .bound)
        #expect(try decode(AddCredentialRequest.self, #"{"publicKey":"k"}"#).signatureScheme == nil)
        #expect(refusal(AddCredentialRequest.self, #"{"publicKey":"k","signatureScheme":"weak"}"#)!
            == ("invalid_request", "signatureScheme must be \"bound\" or \"compatible\"."))
    }

    @Test func fieldsComeInCamelCaseOrSnakeCaseAndUnknownOnesAreIgnored() throws {
        let snake = try decode(
            AddCredentialRequest.self,
            #"{"public_key":"k","device_name":"Pixel","push_token":"t","user_authentication_required":true,"timeout":30,"later":1}"#)
        #expect(snake == AddCredentialRequest(
            publicKey: "k", deviceName: "Pixel", pushToken: "t", userAuthenticationRequired: true, timeout: 30))
        let both = try decode(ValidateRequest.self, #"{"token":"camel","userId":"a","user_id":"b"}"#)
        #expect(both.token == "camel" && both.userId == "a")
    }

    @Test func anEmptyOrBlankBodyIsAnEmptyObjectWhateverItsMediaType() throws {
        #expect(try decode(TrackRequest.self, "") == TrackRequest())
        #expect(try decode(TrackRequest.self, " \r\n\t", contentType: "text/plain") == TrackRequest())
        #expect(refusal(ValidateRequest.self, "")! == ("invalid_request", "token is required."))
    }

    /// Both stores end a string at NUL, so `<id>\0junk` would reach the row of `<id>` (V8): every string a request
    /// type reads is an identifier unless it says otherwise, and an identifier holds no control or bidi-override
    /// character, whichever spelling of the field carried it.
    @Test func identifiersWithNULOrControlCharactersAreRefusedNamingTheField() {
        let refused = { (field: String) in ("invalid_request", "\(field) must not contain control or bidirectional-override characters.") }
        #expect(refusal(ClaimChallengeRequest.self, #"{"challengeId":"c\u0000junk","publicKey":"k","signature":"s"}"#)! == refused("challengeId"))
        #expect(refusal(TrackRequest.self, #"{"idempotencyKey":"order-17\u0000a"}"#)! == refused("idempotencyKey"))
        #expect(refusal(TrackRequest.self, #"{"idempotency_key":"order-17\u0000a"}"#)! == refused("idempotencyKey"))
        #expect(refusal(AddCredentialRequest.self, #"{"publicKey":"k","deviceName":"phone\u001b[2J"}"#)! == refused("deviceName"))
        #expect(refusal(AddCredentialRequest.self, #"{"publicKey":"k","device_name":"phone\u202egnp.exe"}"#)! == refused("deviceName"))
        #expect(refusal(AddCredentialRequest.self, #"{"publicKey":"k","pushToken":"t\u0085"}"#)! == refused("pushToken"))
        #expect(refusal(ValidateRequest.self, #"{"token":"t","userId":"alice\u007f"}"#)! == refused("userId"))
        #expect(refusal(UpdateUserRequest.self, #"{"displayName":"Al\u2066ice"}"#)! == refused("displayName"))
    }

    @Test func identifiersKeepEveryPrintableCharacter() throws {
        let added = try decode(AddCredentialRequest.self, #"{"publicKey":"k","deviceName":"José’s 电话 \u200f(work)"}"#)
        #expect(added.deviceName == "José’s 电话 \u{200F}(work)")
    }

    /// Free text (a user agent, a PEM key, a service-account JSON) keeps line breaks and any printable character,
    /// but never NUL.
    @Test func freeTextKeepsLineBreaksButNeverNUL() throws {
        #expect(try decode(TrackRequest.self, #"{"userAgent":"Mozilla/5.0\t(X11)\r\n\u202e"}"#).userAgent == "Mozilla/5.0\t(X11)\r\n\u{202E}")
        #expect(refusal(TrackRequest.self, #"{"userAgent":"Mozilla\u0000"}"#)! == ("invalid_request", "userAgent must not contain NUL characters."))
        let pem = "-----BEGIN PRIVATE KEY-----\\nMIGH\\n-----END PRIVATE KEY-----\\n"
        #expect(try decode(UpdatePushSettingsRequest.self, #"{"apnsPrivateKey":"\#(pem)"}"#).apnsPrivateKey?.contains("\n") == true)
        #expect(refusal(UpdatePushSettingsRequest.self, #"{"fcmServiceAccount":"{\u0000}"}"#)!
            == ("invalid_request", "fcmServiceAccount must not contain NUL characters."))
        #expect(refusal(UpdatePushSettingsRequest.self, #"{"apnsKeyId":"K\n"}"#)!
            == ("invalid_request", "apnsKeyId must not contain control or bidirectional-override characters."))
    }

    /// A QR start's action code follows the path's action-code rule, for a tracked and an anonymous start alike
    /// (the WebSocket reads its message with this same type, V9).
    @Test func aQRStartsActionIsAnActionCode() throws {
        #expect(try decode(StartQRChallengeRequest.self, #"{"action":"kiosk.signIn:v2-1_a"}"#).action == "kiosk.signIn:v2-1_a")
        #expect(refusal(StartQRChallengeRequest.self, #"{"action":"sign In"}"#)!
            == ("invalid_request", "action may hold only letters, digits and _ - . :"))
        #expect(refusal(StartQRChallengeRequest.self, #"{"action":"sign\u202eIn"}"#)!
            == ("invalid_request", "action must not contain control or bidirectional-override characters."))
        #expect(refusal(StartQRChallengeRequest.self, #"{"action":"\#(String(repeating: "a", count: 101))"}"#)!
            == ("invalid_request", "action must be at most 100 bytes."))
    }

    @Test func theCharacterRulesDrawTheirLines() {
        for scalar: UInt32 in [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0x85, 0x9F, 0x202A, 0x202E, 0x2066, 0x2069] {
            #expect(!WireCharacters.identifier.allows("a" + String(UnicodeScalar(scalar)!)), "U+\(String(scalar, radix: 16))")
        }
        for scalar: UInt32 in [0x20, 0x7E, 0xA0, 0x200E, 0x200F, 0x2029 - 1, 0x2070] {
            #expect(WireCharacters.identifier.allows("a" + String(UnicodeScalar(scalar)!)), "U+\(String(scalar, radix: 16))")
        }
        #expect(!WireCharacters.text.allows("a\u{0}b"))
        #expect(WireCharacters.text.allows("a\t\r\n\u{1B}\u{202E}b"))
    }

    @Test func aBodyMustBeDeclaredJSONWhenDeclaredAtAll() throws {
        #expect(refusal(TrackRequest.self, #"{"ipAddress":"1"}"#, contentType: "text/plain")!
            == ("unsupported_media_type", "The body must be application/json."))
        #expect(try decode(TrackRequest.self, #"{"ipAddress":"1"}"#, contentType: "Application/JSON; charset=utf-8").ipAddress == "1")
        #expect(try decode(TrackRequest.self, #"{"ipAddress":"1"}"#, contentType: nil).ipAddress == "1")
    }

    @Test func aBodyThatIsNoJSONObjectIsRefused() {
        // A bare string or number (a JSON fragment) counts as no JSON at all, as it always has.
        for body in ["{", "\u{ff}", #"{"a":1}garbage"#, #""text""#, "3", "null"] {
            #expect(refusal(TrackRequest.self, body)! == ("invalid_request", "The body is not valid JSON."), "\(body)")
        }
        for body in ["[1,2]", "[]"] {
            #expect(refusal(TrackRequest.self, body)! == ("invalid_request", "The body must be a JSON object."), "\(body)")
        }
    }

    @Test func refusalsNameTheFieldAndTheRule() {
        let cases: [(String, String)] = [
            (#"{"ipAddress":12}"#, "ipAddress must be a string."),
            (#"{"idempotencyKey":""}"#, "idempotencyKey must not be empty."),
            (#"{"redirectToSettings":"yes"}"#, "redirectToSettings must be true or false."),
            (#"{"redirectToSettings":1}"#, "redirectToSettings must be true or false."),
            (#"{"custom":"not-an-object"}"#, "custom must be a JSON object."),
            (#"{"custom":{"blob":"\#(String(repeating: "x", count: 17_000))"}}"#, "custom must be at most 16384 bytes of JSON."),
            (#"{"locale":"\#(String(repeating: "x", count: 36))"}"#, "locale must be at most 35 bytes."),
        ]
        for (body, description) in cases {
            #expect(refusal(TrackRequest.self, body)! == ("invalid_request", description), "\(body)")
        }
        #expect(refusal(AddCredentialRequest.self, #"{"publicKey":"k","timeout":true}"#)!.1
            == "timeout must be a whole number from 0 to 86400.")
        #expect(refusal(AddCredentialRequest.self, #"{"publicKey":"k","timeout":1.5}"#)!.1
            == "timeout must be a whole number from 0 to 86400.")
        #expect(refusal(AddCredentialRequest.self, #"{"publicKey":null}"#)!.1 == "publicKey is required.")
        #expect(refusal(UpdateChallengeRequest.self, #"{"challengeId":"c"}"#)!.1 == "approved is required.")
        #expect(refusal(UpdateActionRequest.self, #"{"state":"DONE"}"#)!.1 == "state must be one of "
            + "ALLOW, BLOCK, CHALLENGE_REQUIRED, CHALLENGE_FAILED, CHALLENGE_SUCCEEDED, REVIEW_REQUIRED, REVIEW_FAILED, REVIEW_SUCCEEDED.")
        #expect(refusal(UpdateActionRequest.self, #"{"state":3}"#)!.1 == "state must be a string.")
        #expect(refusal(VaultUnlockRequest.self, #"{"reason":"NOW"}"#)!.1
            == "reason must be ADD_BIOMETRY, FETCH_ENCRYPTION_KEY, SIGN_WITH_DEVICE_PRIVATE_KEY or RECOVERY_CODE.")
        #expect(refusal(VerifySignatureRequest.self, #"{"method":"POST","uriId":"/x","body":"!!"}"#)!.1
            == "body must be Base64 of the signed request body.")
        #expect(refusal(VerifySignatureRequest.self, #"{"method":"GET","uriId":"/x","body":"AA==","query":"a=1"}"#)!.1
            == "query must be a well-formed query string, and only without body.")
    }

    @Test func nullIsAbsentUnlessTheTypeAsksForIt() throws {
        // Android sends `"verificationCode": null`.
        let update = try decode(
            UpdateChallengeRequest.self,
            #"{"challengeId":"c","publicKey":"k","approved":false,"signature":"s","verificationCode":null}"#)
        #expect(update.verificationCode == nil && update.approved == false)
        let user = try decode(UpdateUserRequest.self, #"{"email":null,"custom":null,"locale":"de"}"#)
        #expect(user.email == .some(nil) && user.custom == .some(nil) && user.locale == "de" && user.username == nil)
        #expect(try decode(VaultUnlockRequest.self, "{}").reason == "ADD_BIOMETRY")
    }

    @Test func aServiceAccountComesAsTextOrAsAnObject() throws {
        #expect(try decode(UpdatePushSettingsRequest.self, #"{"fcmServiceAccount":"{}"}"#).fcmServiceAccount == .string("{}"))
        #expect(try decode(UpdatePushSettingsRequest.self, #"{"fcm_service_account":{"a":1}}"#).fcmServiceAccount
            == .object(["a": .number(1)]))
        #expect(refusal(UpdatePushSettingsRequest.self, #"{"fcmServiceAccount":5}"#)!.1 == "fcmServiceAccount must be a JSON object.")
    }

    @Test func whatAClientEncodesTheServerDecodesUnchanged() throws {
        func roundTrip<T: Encodable & WireDecodable & Equatable>(_ value: T) throws {
            let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            #expect(try decode(T.self, json) == value, "\(json)")
        }
        try roundTrip(AddCredentialRequest(
            publicKey: "k", deviceName: "d", devicePlatform: "ios", pushToken: "t", userPresenceRequired: true,
            userAuthenticationRequired: false, timeout: 10, authorizationType: "BIOMETRIC"))
        try roundTrip(RemoveCredentialRequest(publicKey: "k", signature: "s"))
        try roundTrip(UpdateCredentialRequest(challengeId: "c", publicKey: "k", signature: "s", pushToken: "t", resetExpiry: true))
        try roundTrip(UpdateChallengeRequest(
            challengeId: "c", publicKey: "k", approved: true, signature: "s", verificationCode: "123", boundSignature: "b"))
        try roundTrip(StartPushChallengeRequest(action: "signIn", userAuthenticatorId: "a"))
        try roundTrip(VerifyPushRequest(challengeId: "c"))
        try roundTrip(StartQRChallengeRequest(action: "signIn", custom: ["plan": .string("pro")]))
        try roundTrip(VerifyQRRequest(challengeId: "c", deviceCode: "d"))
        try roundTrip(ClaimChallengeRequest(challengeId: "c", publicKey: "k", signature: "s"))
        try roundTrip(CreateActivationRequest(devicePublicKey: "k", activationName: "phone"))
        try roundTrip(ActivationStatusRequest(activationId: "a", challenge: "c"))
        try roundTrip(VaultUnlockRequest(reason: "RECOVERY_CODE"))
        try roundTrip(VerifySignatureRequest(method: "GET", uriId: "/x", body: nil, query: "b=2&a=1", authorization: "PowerAuth x"))
        var track = TrackRequest()
        track.idempotencyKey = "k"
        track.redirectToSettings = false
        track.custom = ["n": .number(2), "nested": .object(["ok": .bool(true)])]
        try roundTrip(track)
        try roundTrip(UpdateActionRequest(state: .challengeSucceeded))
        var validate = ValidateRequest(token: "t")
        validate.userId = "u"
        validate.action = "signIn"
        try roundTrip(validate)
        var user = UpdateUserRequest()
        user.email = .some(nil)
        user.displayName = "Alice"
        user.emailVerified = true
        try roundTrip(user)
        var enroll = EnrollAuthenticatorRequest(verificationMethod: .sms)
        enroll.phoneNumber = "+64"
        enroll.isDefault = true
        try roundTrip(enroll)
        var push = UpdatePushSettingsRequest()
        push.provider = "apns"
        push.webhookUrl = .some(nil)
        push.fcmServiceAccount = .object(["type": .string("service_account")])
        try roundTrip(push)
    }
}
