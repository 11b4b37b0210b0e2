package import AssentLog
import Foundation

/// Delivers the webhook outbox: polls for due events, POSTs each to its tenant's URL with the `X-Signature-V2`
/// header, and records the outcome. A failure (non-2xx, timeout, refused connection) is retried with exponential
/// backoff up to a limit. Events live in the database until delivered, so a restart loses none (delivery is at
/// least once; receivers de-duplicate by the envelope's `id`). Runs beside request handling and never blocks it.
package final class WebhookDispatcher: Sendable {
    /// How retries are spaced.
    package struct Policy: Sendable {
        /// Delay before the first retry; doubled for each further one.
        package var retryBase: Double = 30
        /// Attempts in all (the first plus retries) before an event is marked failed.
        package var maxAttempts = 4
        /// How often the outbox is checked.
        package var pollInterval = Duration.milliseconds(500)
        /// Per-request timeout.
        package var timeout: Double = 5

        /// The defaults.
        package init() {}
    }

    private let store: any WebhookOutbox & TenantStore
    private let tenants: TenantDirectory
    private let clock: WallClock
    private let logger: Logger
    private let policy: Policy
    private let transport: any WebhookTransport
    private let loop: PeriodicLoop

    /// A dispatcher posting through `transport`; `ticks` paces the outbox polls (a manual clock in tests).
    package init(
        store: any WebhookOutbox & TenantStore, tenants: TenantDirectory, transport: any WebhookTransport, clock: WallClock, logger: Logger,
        policy: Policy, ticks: any Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        self.tenants = tenants
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.policy = policy
        loop = PeriodicLoop(clock: ticks)
    }

    /// Starts the delivery loop.
    package func start() {
        loop.start { [self] _ in await round() }
    }

    /// Stops the loop after the current round; undelivered events stay queued for the next start.
    package func stop() async { await loop.stop() }

    /// Delivers one batch of due events; pauses only when the outbox had less than a full batch.
    private func round() async -> PeriodicLoop.Pause {
        do {
            let due = try await store.dueWebhookEvents(now: clock.nowMilliseconds(), limit: 32)
            await withTaskGroup(of: Void.self) { group in
                for event in due {
                    group.addTask { await self.deliver(event) }
                }
            }
            if due.count == 32 { return .none }
        } catch {
            logger.log(.error, "webhook outbox read failed", ["error": .string(String(describing: error))])
        }
        return .upTo(policy.pollInterval)
    }

    private func deliver(_ event: WebhookEvent) async {
        let attempt = event.attempts + 1
        var fields: [String: LogValue] = [
            "eventId": .string(event.id), "type": .string(event.type), "tenantId": .string(event.tenantID),
            "attempt": .int(attempt),
        ]
        let failure: String
        let recorded: String
        if let tenant = try? await store.tenant(id: event.tenantID), let url = tenant.settings.webhookURL {
            let headers = [
                ("Content-Type", "application/json"),
                ("User-Agent", "Assent-Webhooks/1"),
                ("X-Signature-V2",
                 WebhookSignature.header(body: event.body, secret: tenants.secret(of: tenant), timestamp: clock.nowSeconds())),
            ]
            switch await transport.post(url: url, headers: headers, body: Array(event.body.utf8), timeout: policy.timeout) {
            case .answered(let status) where (200..<300).contains(status):
                do {
                    try await store.markWebhookDelivered(id: event.id, at: clock.nowMilliseconds())
                    logger.log(.info, "webhook delivered", fields.merging(["status": .int(status)]) { $1 })
                } catch {
                    logger.log(.error, "webhook delivered but not recorded", fields)
                }
                return
            case .answered(let status):
                failure = "HTTP \(status)"
                recorded = failure
            case .failed(let code, let reason):
                // The detail (a refused private address, a refused connection) is for the log; what is recorded,
                // which a tenant may one day see, says only `delivery_failed`.
                failure = "network error: \(code): \(reason)"
                recorded = OutboundURLPolicy.deliveryFailed
            }
            fields["host"] = .string(OutboundURLPolicy.loggableHost(of: url))
        } else {
            failure = "the tenant has no webhook URL"
            recorded = failure
        }
        let now = clock.nowMilliseconds()
        let next: Int64? = attempt >= policy.maxAttempts
            ? nil : now + Int64(policy.retryBase * 1000 * pow(2, Double(attempt - 1)))
        logger.log(next == nil ? .error : .warning, next == nil ? "webhook failed for good" : "webhook attempt failed",
                   fields.merging(["error": .string(failure)]) { $1 })
        do {
            try await store.markWebhookAttemptFailed(id: event.id, attempts: attempt, nextAttemptAt: next, error: recorded, at: now)
        } catch {
            // The lease runs out and the event is claimed again, so it is retried rather than lost.
            logger.log(.error, "webhook attempt not recorded", fields.merging(["error": .string(String(describing: error))]) { $1 })
        }
    }
}
