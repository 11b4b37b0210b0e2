package import AssentLog

/// Reads from the store, every ``interval``, the figures that are too costly to compute on every scrape or that no
/// request produces: the webhook outbox's depth and oldest age, and the challenges that expired unanswered since the
/// last round (counted once across instances, see ``MetricsStore/countExpiredChallenges(through:)``).
package final class MetricsSampler: Sendable {
    private let store: any MetricsStore
    /// Makes the `sign_in.completed` events of the expiries the count records (nil: none sent).
    private let history: SignInHistory?
    private let metrics: DomainMetrics
    private let clock: WallClock
    private let logger: Logger
    private let interval: Duration
    private let loop: PeriodicLoop

    /// A sampler over `store` writing into `metrics` every `interval`; `ticks` paces the rounds (a manual clock in
    /// tests).
    package init(
        store: any MetricsStore, history: SignInHistory? = nil, metrics: DomainMetrics, clock: WallClock, logger: Logger,
        interval: Duration, ticks: any Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        self.history = history
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
        self.interval = interval
        loop = PeriodicLoop(clock: ticks)
    }

    /// Samples once now.
    package func sampleOnce() async throws {
        let now = clock.nowMilliseconds()
        let backlog = try await store.webhookOutboxBacklog()
        let age = backlog.oldestCreatedAt.map { max(0, Double(now - $0) / 1000) } ?? 0
        metrics.webhookOutbox(depth: backlog.depth, oldestAgeSeconds: age)
        let events = try await history?.expiryEvents()
        for (kind, count) in try await store.countExpiredChallenges(through: now, signInEvents: events) {
            metrics.challenge(kind, .expired, count: count)
        }
    }

    /// Samples now and then every ``interval``.
    package func start() {
        loop.start { [self] _ in
            do {
                try await sampleOnce()
            } catch {
                logger.log(.warning, "metrics sample failed", ["error": .string(String(describing: error))])
            }
            return .upTo(interval)
        }
    }

    /// Stops after the current round.
    package func stop() async { await loop.stop() }
}
