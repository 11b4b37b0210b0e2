import AssentServerCore
import Foundation

/// Maps an FCM HTTP v1 `messages:send` answer to a ``PushOutcome``. Errors look like
/// `{"error": {"code": 404, "status": "NOT_FOUND", "details": [{"@type": "...FcmError", "errorCode": "UNREGISTERED"}]}}`.
enum FCMResponse {
    /// The outcome of HTTP `status` with JSON `body`.
    static func outcome(status: Int, body: [UInt8], retryAfter: Double? = nil) -> PushOutcome {
        if (200..<300).contains(status) { return .delivered(status: status) }
        let error = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["error"] as? [String: Any]
        let details = error?["details"] as? [[String: Any]] ?? []
        let fcmCode = details.compactMap { $0["errorCode"] as? String }.first
        let code = fcmCode ?? (error?["status"] as? String) ?? "HTTP \(status)"
        switch (status, code) {
        case (_, "UNREGISTERED"), (404, _):
            return .staleToken(code: PushOutcome.unregistered, status: status, reason: code)
        case (_, "INVALID_ARGUMENT"):
            return .staleToken(code: PushOutcome.invalidToken, status: status, reason: code)
        case (401, _):
            return .retry(status: status, reason: code, refreshCredentials: true)
        case (429, _), (500...599, _):
            return .retry(status: status, reason: code, retryAfter: retryAfter)
        default:
            return .failed(status: status, reason: code)
        }
    }
}
