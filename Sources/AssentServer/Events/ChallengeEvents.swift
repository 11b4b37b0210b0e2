import Synchronization

/// Tells whoever watches a challenge (a WebSocket, a long poll) the moment its state changes in this process.
/// Watchers register per challenge id; `publish` calls them synchronously and must stay cheap for them.
final class ChallengeEvents: Sendable {
    /// A registration, cancelled with ``ChallengeEvents/unsubscribe(_:)``.
    struct Subscription: Hashable, Sendable {
        let challengeID: String
        let id: UInt64
    }

    private struct State {
        var next: UInt64 = 0
        var watchers: [String: [UInt64: @Sendable (Challenge) -> Void]] = [:]
    }

    private let state = Mutex(State())

    /// Calls `handler` with the challenge each time it changes, until unsubscribed.
    func subscribe(challengeID: String, _ handler: @escaping @Sendable (Challenge) -> Void) -> Subscription {
        state.withLock { state in
            state.next += 1
            state.watchers[challengeID, default: [:]][state.next] = handler
            return Subscription(challengeID: challengeID, id: state.next)
        }
    }

    /// Stops a registration.
    func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            state.watchers[subscription.challengeID]?[subscription.id] = nil
            if state.watchers[subscription.challengeID]?.isEmpty == true { state.watchers[subscription.challengeID] = nil }
        }
    }

    /// Reports a change to the challenge's watchers.
    func publish(_ challenge: Challenge) {
        let handlers = state.withLock { Array(($0.watchers[challenge.id] ?? [:]).values) }
        handlers.forEach { $0(challenge) }
    }

    /// How many challenges are watched (for metrics and tests).
    var watchedCount: Int { state.withLock { $0.watchers.count } }
}
