@testable import AssentHTTPClient
@testable import AssentServerCore
import AssentLog
import AssentWire
import Foundation
import Testing

/// The pure rules of push delivery: how provider answers map to outcomes, and when retries happen.
@Suite struct PushDeliveryRulesTests {
    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func `APNs answers map to delivered, stale token, retry or failed`() {
        #expect(APNsResponse.outcome(status: 200, body: []) == .delivered(status: 200))
        #expect(APNsResponse.outcome(status: 410, body: Self.json(#"{"reason":"Unregistered"}"#))
            == .staleToken(code: "push_token_unregistered", status: 410, reason: "Unregistered"))
        #expect(APNsResponse.outcome(status: 400, body: Self.json(#"{"reason":"BadDeviceToken"}"#))
            == .staleToken(code: "push_token_invalid", status: 400, reason: "BadDeviceToken"))
        #expect(APNsResponse.outcome(status: 429, body: Self.json(#"{"reason":"TooManyRequests"}"#))
            == .retry(status: 429, reason: "TooManyRequests"))
        #expect(APNsResponse.outcome(status: 503, body: []) == .retry(status: 503, reason: "HTTP 503"))
        #expect(APNsResponse.outcome(status: 403, body: Self.json(#"{"reason":"ExpiredProviderToken"}"#))
            == .retry(status: 403, reason: "ExpiredProviderToken", refreshCredentials: true))
        #expect(APNsResponse.outcome(status: 400, body: Self.json(#"{"reason":"DeviceTokenNotForTopic"}"#))
            == .failed(status: 400, reason: "DeviceTokenNotForTopic"))
        #expect(APNsResponse.outcome(status: 403, body: Self.json(#"{"reason":"BadCertificate"}"#))
            == .failed(status: 403, reason: "BadCertificate"))
    }

    @Test func `FCM answers map to delivered, stale token, retry or failed`() {
        func error(_ status: Int, _ name: String, _ code: String?) -> [UInt8] {
            let details = code.map { #"[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#($0)"}]"# } ?? "[]"
            return Self.json(#"{"error":{"code":\#(status),"status":"\#(name)","details":\#(details)}}"#)
        }
        #expect(FCMResponse.outcome(status: 200, body: Self.json(#"{"name":"x"}"#)) == .delivered(status: 200))
        #expect(FCMResponse.outcome(status: 404, body: error(404, "NOT_FOUND", "UNREGISTERED"))
            == .staleToken(code: "push_token_unregistered", status: 404, reason: "UNREGISTERED"))
        #expect(FCMResponse.outcome(status: 400, body: error(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT"))
            == .staleToken(code: "push_token_invalid", status: 400, reason: "INVALID_ARGUMENT"))
        #expect(FCMResponse.outcome(status: 400, body: error(400, "INVALID_ARGUMENT", nil))
            == .staleToken(code: "push_token_invalid", status: 400, reason: "INVALID_ARGUMENT"))
        #expect(FCMResponse.outcome(status: 429, body: error(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED"))
            == .retry(status: 429, reason: "QUOTA_EXCEEDED"))
        #expect(FCMResponse.outcome(status: 503, body: []) == .retry(status: 503, reason: "HTTP 503"))
        #expect(FCMResponse.outcome(status: 401, body: error(401, "UNAUTHENTICATED", nil))
            == .retry(status: 401, reason: "UNAUTHENTICATED", refreshCredentials: true))
        #expect(FCMResponse.outcome(status: 403, body: error(403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH"))
            == .failed(status: 403, reason: "SENDER_ID_MISMATCH"))
    }

    @Test func `retries double from the base up to the cap and stop at the challenge's end`() {
        let schedule = PushRetrySchedule(base: 1, cap: 60)
        #expect((1...8).map { schedule.delay(afterAttempt: $0) } == [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000])
        #expect(schedule.delay(afterAttempt: 1, retryAfter: 5) == 5000)
        #expect(schedule.delay(afterAttempt: 3, retryAfter: 2) == 4000)
        #expect(schedule.nextAttempt(afterAttempt: 1, now: 10_000, expiresAt: 20_000) == 11_000)
        #expect(schedule.nextAttempt(afterAttempt: 4, now: 10_000, expiresAt: 18_000) == nil)
        #expect(PushRetrySchedule(base: 0.05, cap: 60).delay(afterAttempt: 3) == 200)
    }

    @Test func `default sends iOS devices to APNs and the rest to FCM; none and webhook queue nothing`() {
        var push = PushSettings()
        push.provider = .default
        #expect(push.provider(forPlatform: "ios") == .apns)
        #expect(push.provider(forPlatform: "ANDROID") == .fcm)
        #expect(push.provider(forPlatform: nil) == .fcm)
        push.provider = .none
        #expect(push.provider(forPlatform: "IOS") == nil)
        push.provider = .webhook
        #expect(push.provider(forPlatform: "IOS") == nil)
    }

    @Test func `tenants stored before push delivery decode with no provider`() throws {
        let old = try JSONDecoder().decode(TenantSettings.self, from: Data(#"{"unenrolledState":"ALLOW"}"#.utf8))
        #expect(old.push == nil)
        #expect(PushSettingsEditor.view(old).provider == "none")
    }
}
