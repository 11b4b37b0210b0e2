package import AssentLog

/// Every minute, deletes anonymous QR challenges no device claimed once they expire, other challenges a day past
/// their expiry, expired nonces, ended admin console sessions, webhook events delivered or given up a week ago, and
/// sign-in history rows past their tenant's retention, so a flood of unauthenticated
/// QR starts leaves storage bounded by what is live (at most a minute past expiry). The store deletes in bounded
/// batches, each its own short write, so a sweep with millions of rows to remove never stalls the requests beside it.
package final class Sweeper: Sendable {
    private let store: any StoreMaintenance
    private let history: SignInHistory?
    private let clock: WallClock
    private let logger: Logger
    private let loop: PeriodicLoop
    /// Pause between sweeps.
    static let interval = Duration.seconds(60)

    /// A sweeper over `store` (and `history`'s rows past each tenant's retention); `ticks` paces the rounds (a manual
    /// clock in tests).
    package init(
        store: any StoreMaintenance, history: SignInHistory? = nil, clock: WallClock, logger: Logger,
        ticks: any Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        self.history = history
        self.clock = clock
        self.logger = logger
        loop = PeriodicLoop(clock: ticks)
    }

    /// Sweeps once now.
    package func sweepOnce() async throws -> Int {
        let now = clock.nowMilliseconds()
        let removed = try await store.sweep(now: now, challengesBefore: now - 86_400_000, eventsBefore: now - 7 * 86_400_000)
        return removed + (try await history?.sweep(now: now) ?? 0)
    }

    /// Sweeps now and then every ``interval``.
    package func start() {
        loop.start { [self] _ in
            do {
                let removed = try await sweepOnce()
                if removed > 0 { logger.log(.info, "swept expired rows", ["rows": .int(removed)]) }
            } catch {
                logger.log(.warning, "sweep failed", ["error": .string(String(describing: error))])
            }
            return .upTo(Self.interval)
        }
    }

    /// Stops after the current sweep.
    package func stop() async { await loop.stop() }
}
