import Foundation

/// The `webhook` provider: the tenant's backend sends the notification itself, told by a **synchronous**
/// `push.created` event (wire reference §6) POSTed while the challenge starts, signed with `X-Signature-V2`.
/// Only a 2xx answer within the timeout counts as sent.
package struct PushWebhookSender: Sendable {
    let transport: any WebhookTransport
    let events: WebhookEvents
    let clock: WallClock
    let secret: @Sendable (Tenant) -> String
    /// Seconds to wait for the tenant's answer.
    let timeout: Double

    /// What the call came to: nil when accepted, else a short reason (`HTTP 500`, `timeout`, ...) and the status.
    func send(_ challenge: Challenge, tenant: Tenant, url: String) async -> (failure: String?, status: Int?) {
        let (_, body) = events.pushCreated(challenge, tenant: tenant)
        let headers = [
            ("Content-Type", "application/json"),
            ("User-Agent", "Assent-Webhooks/1"),
            ("X-Signature-V2", WebhookSignature.header(body: body, secret: secret(tenant), timestamp: clock.nowSeconds())),
        ]
        switch await transport.post(url: url, headers: headers, body: Array(body.utf8), timeout: timeout) {
        case .answered(let status): return ((200..<300).contains(status) ? nil : "HTTP \(status)", status)
        case .failed(let code): return (code, nil)
        }
    }

    /// Posts through `transport`, signs with each tenant's `secret` and waits at most `timeout` seconds.
    package init(
        transport: any WebhookTransport,
        events: WebhookEvents,
        clock: WallClock,
        secret: @escaping @Sendable (Tenant) -> String,
        timeout: Double
    ) {
        self.transport = transport
        self.events = events
        self.clock = clock
        self.secret = secret
        self.timeout = timeout
    }
}
