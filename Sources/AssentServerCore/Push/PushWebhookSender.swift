package import AssentLog
import Foundation

/// The `webhook` provider: the tenant's backend sends the notification itself, told by a **synchronous**
/// `push.created` event (wire reference §6) POSTed while the challenge starts, signed with `X-Signature-V2`.
/// Only a 2xx answer within the timeout counts as sent. The URL is the tenant's, so a failure is reported to it only
/// as `delivery_failed` (with the HTTP status when its endpoint answered); what went wrong on the way — a refused
/// private address, a refused connection, a timeout — goes to the log, never to the tenant.
package struct PushWebhookSender: Sendable {
    let transport: any WebhookTransport
    let events: WebhookEvents
    let clock: WallClock
    let secret: @Sendable (Tenant) -> String
    /// Seconds to wait for the tenant's answer.
    let timeout: Double
    let logger: Logger

    /// What posting `push.created` came to.
    struct Outcome: Sendable {
        /// Nil when the endpoint accepted it, else `delivery_failed`.
        var failure: String?
        /// The HTTP status, when the endpoint answered.
        var status: Int?
    }

    /// Posts `push.created` for `challenge` to `url` and says what came of it.
    func send(_ challenge: Challenge, tenant: Tenant, url: String) async -> Outcome {
        let body = events.pushCreated(challenge, tenant: tenant).body
        let headers = [
            ("Content-Type", "application/json"),
            ("User-Agent", "Assent-Webhooks/1"),
            ("X-Signature-V2", WebhookSignature.header(body: body, secret: secret(tenant), timestamp: clock.nowSeconds())),
        ]
        let detail: String
        let status: Int?
        switch await transport.post(url: url, headers: headers, body: Array(body.utf8), timeout: timeout) {
        case .answered(let code) where (200..<300).contains(code): return Outcome(failure: nil, status: code)
        case .answered(let code): (detail, status) = ("HTTP \(code)", code)
        case .failed(let code, let reason): (detail, status) = ("\(code): \(reason)", nil)
        }
        logger.warning(
            "push webhook failed",
            ["tenantId": .string(tenant.id), "challengeId": .string(challenge.id), "host": .string(OutboundURLPolicy.loggableHost(of: url)),
             "error": .string(detail)])
        return Outcome(failure: OutboundURLPolicy.deliveryFailed, status: status)
    }

    /// Posts through `transport`, signs with each tenant's `secret` and waits at most `timeout` seconds.
    package init(
        transport: any WebhookTransport,
        events: WebhookEvents,
        clock: WallClock,
        secret: @escaping @Sendable (Tenant) -> String,
        timeout: Double,
        logger: Logger
    ) {
        self.logger = logger
        self.transport = transport
        self.events = events
        self.clock = clock
        self.secret = secret
        self.timeout = timeout
    }
}
