import AssentServerCore
import Foundation

/// Maps an APNs answer to a ``PushOutcome`` (Apple's "Handling notification responses from APNs").
enum APNsResponse {
    /// The outcome of HTTP `status` with JSON `body` (`{"reason": ...}`), and the `retry-after` seconds if given.
    static func outcome(status: Int, body: [UInt8], retryAfter: Double? = nil) -> PushOutcome {
        let reason = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["reason"] as? String
        switch status {
        case 200:
            return .delivered(status: status)
        case 410:
            return .staleToken(code: PushOutcome.unregistered, status: status, reason: reason ?? "Unregistered")
        case 400 where reason == "BadDeviceToken":
            return .staleToken(code: PushOutcome.invalidToken, status: status, reason: "BadDeviceToken")
        case 403 where reason == "ExpiredProviderToken" || reason == "InvalidProviderToken":
            return .retry(status: status, reason: reason ?? "provider token", refreshCredentials: true)
        case 429:
            return .retry(status: status, reason: reason ?? "TooManyRequests", retryAfter: retryAfter)
        case 500...599:
            return .retry(status: status, reason: reason ?? "HTTP \(status)", retryAfter: retryAfter)
        default:
            return .failed(status: status, reason: reason ?? "HTTP \(status)")
        }
    }
}
