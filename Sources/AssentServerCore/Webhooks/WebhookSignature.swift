import AssentCrypto
import Foundation

/// The `X-Signature-V2` header of the wire reference §6: `t=<unix seconds>,v2=<sig>` where
/// `sig = base64(HMAC-SHA256(key: the tenant's secret key, message: "<t>.<raw body>"))` without `=` padding —
/// what the official SDKs' webhook verifiers check.
package enum WebhookSignature {
    /// The header value for `body` sent at `timestamp`.
    package static func header(body: String, secret: String, timestamp: Int64) -> String {
        let mac = HMACSHA256.authenticate(Array("\(timestamp).\(body)".utf8), key: Array(secret.utf8))
        let signature = Base64.encode(mac).replacingOccurrences(of: "=", with: "")
        return "t=\(timestamp),v2=\(signature)"
    }
}
