package import AssentLog

/// Every ``interval`` (half a second by default), adds what ``OverviewTally`` counted to the store as one batch and
/// folds the totals' change rows (``OverviewStore``). A failed add is retried, as the same batch, next round; a stop
/// flushes one last time.
package final class OverviewFlusher: Sendable {
    /// Change rows folded per round at most (a round with more left starts the next at once).
    static let foldLimit = 20_000

    private let store: any OverviewStore
    private let tally: OverviewTally
    private let logger: Logger
    private let interval: Duration
    private let loop: PeriodicLoop

    /// A flusher of `tally` into `store`; `ticks` paces the rounds (a manual clock in tests).
    package init(
        store: any OverviewStore, tally: OverviewTally, logger: Logger, interval: Duration = .milliseconds(500),
        ticks: any Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        self.tally = tally
        self.logger = logger
        self.interval = interval
        loop = PeriodicLoop(clock: ticks)
    }

    /// Adds the next batch, if any, to the store. True when nothing is left to add.
    @discardableResult
    package func flushOnce() async throws -> Bool {
        guard let batch = tally.nextBatch() else { return true }
        _ = try await store.addChallengeMinutes(batch)
        tally.flushed(batch)
        return false
    }

    /// One round: flush, then fold. Returns whether folding left change rows behind.
    package func roundOnce() async throws -> Bool {
        try await flushOnce()
        return try await store.foldOverviewTotals(limit: Self.foldLimit) == Self.foldLimit
    }

    /// Runs a round now and then every ``interval``.
    package func start() {
        loop.start { [self] _ in
            do {
                if try await roundOnce() { return .none }
            } catch {
                logger.repeatedWarning("overview counters not flushed", ["error": .string(String(describing: error))])
            }
            return .upTo(interval)
        }
    }

    /// Stops the rounds and flushes what is left.
    package func stop() async {
        await loop.stop()
        do {
            while try await !flushOnce() {}
        } catch {
            logger.log(.warning, "overview counters lost at stop", ["error": .string(String(describing: error))])
        }
    }
}
