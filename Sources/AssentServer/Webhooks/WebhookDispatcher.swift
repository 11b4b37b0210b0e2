import AssentHTTP
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delivers the webhook outbox: polls for due events, POSTs each to its tenant's URL with the `X-Signature-V2`
/// header, and records the outcome. A failure (non-2xx, timeout, refused connection) is retried with exponential
/// backoff up to a limit. Events live in the database until delivered, so a restart loses none (delivery is at
/// least once; receivers de-duplicate by the envelope's `id`). Runs beside request handling and never blocks it.
final class WebhookDispatcher: Sendable {
    /// How retries are spaced.
    struct Policy: Sendable {
        /// Delay before the first retry; doubled for each further one.
        var retryBase: Double = 30
        /// Attempts in all (the first plus retries) before an event is marked failed.
        var maxAttempts = 4
        /// How often the outbox is checked.
        var pollInterval: Double = 0.5
        /// Per-request timeout.
        var timeout: Double = 5
    }

    private let store: any Store
    private let tenants: TenantDirectory
    private let clock: WallClock
    private let logger: Logger
    private let policy: Policy
    private let session: URLSession
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(store: any Store, tenants: TenantDirectory, clock: WallClock, logger: Logger, policy: Policy) {
        self.store = store
        self.tenants = tenants
        self.clock = clock
        self.logger = logger
        self.policy = policy
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = policy.timeout
        configuration.timeoutIntervalForResource = policy.timeout
        configuration.httpMaximumConnectionsPerHost = 4
        session = URLSession(configuration: configuration)
    }

    /// Starts the delivery loop.
    func start() {
        task.withLock { current in
            guard current == nil else { return }
            current = Task { [self] in await run() }
        }
    }

    /// Stops the loop after the current round; undelivered events stay queued for the next start.
    func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
        session.invalidateAndCancel()
    }

    private func run() async {
        while !Task.isCancelled {
            do {
                let due = try await store.dueWebhookEvents(now: clock.nowMilliseconds(), limit: 32)
                await withTaskGroup(of: Void.self) { group in
                    for event in due {
                        group.addTask { await self.deliver(event) }
                    }
                }
                if due.count == 32 { continue }
            } catch {
                logger.log(.error, "webhook outbox read failed", ["error": .string(String(describing: error))])
            }
            try? await Task.sleep(nanoseconds: UInt64(policy.pollInterval * 1_000_000_000))
        }
    }

    private func deliver(_ event: WebhookEvent) async {
        let attempt = event.attempts + 1
        let fields: [String: LogValue] = [
            "eventId": .string(event.id), "type": .string(event.type), "tenantId": .string(event.tenantID),
            "attempt": .int(attempt),
        ]
        var failure: String
        if let tenant = try? await store.tenant(id: event.tenantID),
           let address = tenant.settings.webhookURL, let url = URL(string: address)
        {
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = Data(event.body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Assent-Webhooks/1", forHTTPHeaderField: "User-Agent")
            request.setValue(
                WebhookSignature.header(body: event.body, secret: tenants.secret(of: tenant), timestamp: clock.nowSeconds()),
                forHTTPHeaderField: "X-Signature-V2")
            do {
                let (_, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                if (200..<300).contains(status) {
                    do {
                        try await store.markWebhookDelivered(id: event.id, at: clock.nowMilliseconds())
                        logger.log(.info, "webhook delivered", fields.merging(["status": .int(status)]) { $1 })
                    } catch {
                        logger.log(.error, "webhook delivered but not recorded", fields)
                    }
                    return
                }
                failure = "HTTP \(status)"
            } catch {
                failure = (error as? URLError).map { "network error \($0.code.rawValue)" } ?? "network error"
            }
        } else {
            failure = "the tenant has no webhook URL"
        }
        let now = clock.nowMilliseconds()
        let next: Int64? = attempt >= policy.maxAttempts
            ? nil : now + Int64(policy.retryBase * 1000 * pow(2, Double(attempt - 1)))
        logger.log(next == nil ? .error : .warning, next == nil ? "webhook failed for good" : "webhook attempt failed",
                   fields.merging(["error": .string(failure)]) { $1 })
        do {
            try await store.markWebhookAttemptFailed(id: event.id, attempts: attempt, nextAttemptAt: next, error: failure, at: now)
        } catch {
            // The lease runs out and the event is claimed again, so it is retried rather than lost.
            logger.log(.error, "webhook attempt not recorded", fields.merging(["error": .string(String(describing: error))]) { $1 })
        }
    }
}
