package import AssentLog

/// Carries challenge changes between instances sharing one database: each change another instance announces is
/// re-read from the store and published on this instance's ``ChallengeEvents`` at once; and, as a safety net for an
/// announcement lost with a dropped connection, every watched challenge is re-read every ``interval``.
package final class ChallengeEventBridge: Sendable {
    private let store: any ChallengeStore
    private let events: ChallengeEvents
    private let logger: Logger
    private let interval: Duration
    private let loop: PeriodicLoop

    /// A bridge re-checking watched challenges every `interval` on `ticks` (a manual clock in tests).
    package init(
        store: any ChallengeStore, events: ChallengeEvents, logger: Logger, interval: Duration = .seconds(5),
        ticks: any Clock<Duration> = ContinuousClock()
    ) {
        self.store = store
        self.events = events
        self.logger = logger
        self.interval = interval
        loop = PeriodicLoop(clock: ticks)
    }

    /// Listens to `feed` and starts the re-check.
    package func start(feed: any ChallengeChangeFeed) {
        feed.watchChallengeChanges { [store, events] change in
            // Only a challenge someone here watches is worth a read (most answers are watched nowhere else).
            guard events.isWatched(tenantID: change.tenantID, challengeID: change.challengeID) else { return }
            Task {
                if let challenge = try? await store.challenge(tenantID: change.tenantID, id: change.challengeID) {
                    events.publish(challenge)
                }
            }
        }
        loop.start { [self] _ in
            await recheck()
            return .upTo(interval)
        }
    }

    /// Re-reads every watched challenge and publishes it (watchers hear only real changes).
    func recheck() async {
        for watched in events.watched {
            do {
                if let challenge = try await store.challenge(tenantID: watched.tenantID, id: watched.challengeID) {
                    events.publish(challenge)
                }
            } catch {
                logger.log(.warning, "challenge re-check failed", ["error": .string(String(describing: error))])
                return
            }
        }
    }

    package func stop() async { await loop.stop() }
}
