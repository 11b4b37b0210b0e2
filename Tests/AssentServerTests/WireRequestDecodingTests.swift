import AssentHTTP
@testable import AssentServer
import AssentServerCore
import AssentWire
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's decoder (`WireRequestDecoding`, over `AssentWire`'s `JSONReader`) against the Foundation one it
/// replaced: the same value or the same refusal for every request type and body, except where the new reader is
/// stricter on purpose (a key twice, nesting too deep, numbers too large); and malformed bodies through a real server
/// answer `400 invalid_request` in the JSON envelope, `Content-Type` exactly `application/json`.
@Suite struct WireRequestDecodingTests {
    /// What reading a body gave: the value, or the refusal's code and reason.
    private enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
        case value(T)
        case refused(String)

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .refused(let reason): "refused \(reason)"
            }
        }

        var isValue: Bool {
            if case .value = self { return true }
            return false
        }
    }

    private static func outcome<T: WireDecodable & Equatable>(
        _ decoder: some RequestDecoding, _ type: T.Type, _ body: String
    ) -> Outcome<T> {
        do {
            return .value(try decoder.decode(type, object: Array(body.utf8)))
        } catch let error as AssentError {
            return .refused("\(error.code.wire): \(error.reason)")
        } catch {
            return .refused("unexpected \(error)")
        }
    }

    private static func expectSame<T: WireDecodable & Equatable>(
        _ type: T.Type, _ body: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let ours = outcome(WireRequestDecoding(), type, body)
        let foundation = outcome(FoundationRequestDecoding(), type, body)
        #expect(ours == foundation, "\(T.self) \(body)", sourceLocation: sourceLocation)
    }

    /// The request fixtures of `AssentWireTests`, by type.
    private static let fixtures: [(any (WireDecodable & Hashable).Type, String)] = [
        (ActivationStatusRequest.self, "ActivationStatusRequest"), (AddCredentialRequest.self, "AddCredentialRequest"),
        (ClaimChallengeRequest.self, "ClaimChallengeRequest"), (CreateActivationRequest.self, "CreateActivationRequest"),
        (RemoveCredentialRequest.self, "RemoveCredentialRequest"), (StartPushChallengeRequest.self, "StartPushChallengeRequest"),
        (StartQRChallengeRequest.self, "StartQRChallengeRequest"), (UpdateChallengeRequest.self, "UpdateChallengeRequest"),
        (UpdateCredentialRequest.self, "UpdateCredentialRequest"), (VaultUnlockRequest.self, "VaultUnlockRequest"),
        (VerifyPushRequest.self, "VerifyPushRequest"), (VerifyQRRequest.self, "VerifyQRRequest"),
        (VerifySignatureRequest.self, "VerifySignatureRequest"), (VerifySignatureRequest.self, "VerifySignatureRequest-get"),
    ]

    private static func fixture(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AssentWireTests/Fixtures/\(name).json")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func `every request fixture reads the same through both decoders`() throws {
        for (type, name) in Self.fixtures {
            let body = try Self.fixture(name)
            func check<T: WireDecodable & Hashable>(_ type: T.Type) {
                Self.expectSame(type, body)
                #expect(Self.outcome(WireRequestDecoding(), type, body).isValue, "\(name)")
            }
            check(type)
        }
    }

    @Test func `field rules, spellings, nulls and types read the same through both decoders`() {
        let track = [
            #"{}"#, #"{"ipAddress":"203.0.113.7","user_agent":"Mozilla/5.0\t(X11)","custom":{"n":1,"s":"x/y","a":[true,null]}}"#,
            #"{"ipAddress":12}"#, #"{"idempotencyKey":""}"#, #"{"redirectToSettings":"yes"}"#, #"{"redirectToSettings":1}"#,
            #"{"redirect_to_settings":true,"redirectToSettings":false}"#, #"{"custom":"x"}"#, #"{"custom":null}"#,
            #"{"custom":[1]}"#, #"{"idempotencyKey":"a\u0000b"}"#, #"{"userAgent":"\ud83d\ude00 é"}"#,
            #"{"locale":"\#(String(repeating: "x", count: 36))"}"#, #"{"later":{"x":[1,2,{"y":null}]},"scope":"s"}"#,
            #"{"custom":{"blob":"\#(String(repeating: "x", count: 17_000))"}}"#, "{", "[1]", "[]", #""x""#, "3", "null",
            #"{"a":1}x"#,
        ]
        for body in track { Self.expectSame(TrackRequest.self, body) }
        let credential = [
            #"{"publicKey":"k","timeout":true}"#, #"{"publicKey":"k","timeout":1.5}"#, #"{"publicKey":"k","timeout":30}"#,
            #"{"publicKey":"k","timeout":-1}"#, #"{"publicKey":"k","timeout":1e3}"#, #"{"publicKey":"k","timeout":1e20}"#,
            #"{"publicKey":null}"#, #"{"public_key":"k","device_name":"Pixel","push_token":"t","user_authentication_required":true}"#,
            #"{"publicKey":"k","signatureScheme":"weak"}"#, #"{"publicKey":["k"]}"#,
        ]
        for body in credential { Self.expectSame(AddCredentialRequest.self, body) }
        let update = [
            #"{"challengeId":"c","publicKey":"k","approved":false,"signature":"s","verificationCode":null}"#,
            #"{"challengeId":"c"}"#, #"{"challengeId":"c","publicKey":"k","approved":0,"signature":"s"}"#,
            #"{"challenge_id":"c","public_key":"k","approved":true,"signature":"s","report_fraud":true}"#,
        ]
        for body in update { Self.expectSame(UpdateChallengeRequest.self, body) }
        Self.expectSame(UpdateUserRequest.self, #"{"email":null,"custom":null,"locale":"de"}"#)
        Self.expectSame(UpdatePushSettingsRequest.self, #"{"fcm_service_account":{"a":1}}"#)
        Self.expectSame(UpdatePushSettingsRequest.self, #"{"fcmServiceAccount":5}"#)
        Self.expectSame(UpdateActionRequest.self, #"{"state":"DONE"}"#)
        Self.expectSame(EnrollAuthenticatorRequest.self, #"{"verificationMethod":"SMS","phoneNumber":"+1"}"#)
    }

    @Test func `the new reader refuses what JSON leaves ambiguous, where Foundation guessed`() {
        let cases: [(String, String)] = [
            (#"{"token":"a","token":"b"}"#, "The body is not valid JSON: it has a key twice in one object."),
            (#"{"token":"a","x":\#(String(repeating: "[", count: 80))\#(String(repeating: "]", count: 80))}"#,
             "The body is not valid JSON: it nests deeper than 64 levels."),
            (#"{"token":"a","n":1e400}"#, "The body is not valid JSON: it has a number too large to read."),
            // Foundation reads a trailing comma as if it were not there.
            (#"{"token":"a",}"#, "The body is not valid JSON."),
            (#"{"token":"a","list":[1,]}"#, "The body is not valid JSON."),
        ]
        for (body, reason) in cases {
            #expect(Self.outcome(WireRequestDecoding(), ValidateRequest.self, body) == .refused("invalid_request: \(reason)"))
        }
    }

    @Test func `malformed bodies get 400 in the JSON envelope from a real server, and answers stay application/json`() async throws {
        let server = try await LiveServer()
        let malformed = [
            #"{"token":"eyJh"#, #"{"token":"\x"}"#, #"{"token":"a",}"#, #"{"token":"a","token":"b"}"#,
            #"{"token":1e999}"#, String(repeating: "[", count: 100_000), #"{"token":"a"} trailing"#, "\u{fe}\u{ff}",
        ]
        for body in malformed {
            var request = URLRequest(url: URL(string: server.baseURL + "/v1/validate")!)
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            for (name, value) in server.secretAuth { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as! HTTPURLResponse
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            #expect(http.statusCode == 400, "\(body.prefix(40))")
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(object?["error"] as? String == "invalid_request" && object?["errorCode"] as? String == "invalid_request")
            #expect((object?["errorDescription"] as? String)?.hasPrefix("The body") == true)
        }
        // A good request still works after all of them, and its answer is written by JSONWriter.
        let tracked = try await server.track("alice")
        var request = URLRequest(url: URL(string: server.baseURL + "/v1/validate")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"token":"\#(tracked.token)"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in server.secretAuth { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as! HTTPURLResponse).statusCode == 200)
        #expect((response as! HTTPURLResponse).value(forHTTPHeaderField: "Content-Type") == "application/json")
        let answer = try JSONDecoder().decode(ValidateResponse.self, from: data)
        #expect(answer.isValid == false)
        await server.stop()
    }
}
