import Foundation

/// The `webhook` provider: the tenant's backend sends the notification itself, told by a **synchronous**
/// `push.created` event (wire reference §6) POSTed while the challenge starts, signed with `X-Signature-V2`.
/// Only a 2xx answer within the timeout counts as sent.
struct PushWebhookSender: Sendable {
    let client: HTTP2Client
    let events: WebhookEvents
    let clock: WallClock
    let secret: @Sendable (Tenant) -> String
    /// Seconds to wait for the tenant's answer.
    let timeout: Double

    /// What the call came to: nil when accepted, else a short reason (`HTTP 500`, `timeout`, ...) and the status.
    func send(_ challenge: Challenge, tenant: Tenant, url: String) async -> (failure: String?, status: Int?) {
        let (_, body) = events.pushCreated(challenge, tenant: tenant)
        var request = HTTP2Client.Request(url: url)
        request.timeout = timeout
        request.headers = [
            ("Content-Type", "application/json"),
            ("User-Agent", "Assent-Webhooks/1"),
            ("X-Signature-V2", WebhookSignature.header(body: body, secret: secret(tenant), timestamp: clock.nowSeconds())),
        ]
        request.body = Array(body.utf8)
        do {
            let response = try await client.send(request)
            return ((200..<300).contains(response.status) ? nil : "HTTP \(response.status)", response.status)
        } catch let error as HTTP2Client.TransportError {
            return (error.code, nil)
        } catch {
            return ("transport_failed", nil)
        }
    }
}
