import AssentHTTP
import Synchronization

/// Carries challenge changes between instances sharing one database: each change another instance announces is
/// re-read from the store and published on this instance's ``ChallengeEvents`` at once; and, as a safety net for an
/// announcement lost with a dropped connection, every watched challenge is re-read every ``interval``.
final class ChallengeEventBridge: Sendable {
    private let store: any Store
    private let events: ChallengeEvents
    private let logger: Logger
    /// Seconds between re-checks of the watched challenges.
    let interval: Double
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(store: any Store, events: ChallengeEvents, logger: Logger, interval: Double = 5) {
        self.store = store
        self.events = events
        self.logger = logger
        self.interval = interval
    }

    /// Listens to `feed` and starts the re-check.
    func start(feed: any ChallengeChangeFeed) {
        feed.watchChallengeChanges { [store, events] change in
            // Only a challenge someone here watches is worth a read (most answers are watched nowhere else).
            guard events.isWatched(tenantID: change.tenantID, challengeID: change.challengeID) else { return }
            Task {
                if let challenge = try? await store.challenge(tenantID: change.tenantID, id: change.challengeID) {
                    events.publish(challenge)
                }
            }
        }
        task.withLock { current in
            guard current == nil else { return }
            current = Task { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                    await recheck()
                }
            }
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

    func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}
