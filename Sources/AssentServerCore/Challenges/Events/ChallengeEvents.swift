import AssentSync

/// Tells whoever watches a challenge (a WebSocket, a long poll) the moment its state changes. Watchers register per
/// challenge id; `publish` calls them synchronously and must stay cheap for them. A state is passed on once: the
/// same change may arrive several times (published here, announced by another instance, seen by the periodic
/// re-check of ``ChallengeEventBridge``) and watchers hear it once.
package final class ChallengeEvents: Sendable {
    /// A registration, cancelled with ``ChallengeEvents/unsubscribe(_:)``.
    package struct Subscription: Hashable, Sendable {
        let challengeID: String
        let id: UInt64
    }

    /// A watched challenge, for the re-check.
    struct Watched: Hashable, Sendable {
        var tenantID: String
        var challengeID: String
    }

    private struct Entry {
        var tenantID: String
        var lastState: Challenge.State?
        var handlers: [UInt64: @Sendable (Challenge) -> Void] = [:]
    }

    private struct State {
        var next: UInt64 = 0
        var watched: [String: Entry] = [:]
    }

    private let state = AssentLock(State())

    /// Calls `handler` with the challenge each time its state changes, until unsubscribed.
    package func subscribe(
        tenantID: String, challengeID: String, _ handler: @escaping @Sendable (Challenge) -> Void
    ) -> Subscription {
        state.withLock { state in
            state.next += 1
            state.watched[challengeID, default: Entry(tenantID: tenantID)].handlers[state.next] = handler
            return Subscription(challengeID: challengeID, id: state.next)
        }
    }

    /// Stops a registration.
    package func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            state.watched[subscription.challengeID]?.handlers[subscription.id] = nil
            if state.watched[subscription.challengeID]?.handlers.isEmpty == true {
                state.watched[subscription.challengeID] = nil
            }
        }
    }

    /// Reports a challenge's state to its watchers, unless they already heard this state.
    func publish(_ challenge: Challenge) {
        let handlers = state.withLock { state -> [@Sendable (Challenge) -> Void] in
            guard var entry = state.watched[challenge.id], entry.tenantID == challenge.tenantID,
                  entry.lastState != challenge.state
            else { return [] }
            entry.lastState = challenge.state
            state.watched[challenge.id] = entry
            return Array(entry.handlers.values)
        }
        handlers.forEach { $0(challenge) }
    }

    /// Whether someone here watches the challenge.
    func isWatched(tenantID: String, challengeID: String) -> Bool {
        state.withLock { $0.watched[challengeID]?.tenantID == tenantID }
    }

    /// The challenges someone watches.
    var watched: [Watched] {
        state.withLock { $0.watched.map { Watched(tenantID: $0.value.tenantID, challengeID: $0.key) } }
    }

    /// How many challenges are watched (for metrics and tests).
    var watchedCount: Int { state.withLock { $0.watched.count } }

    /// The defaults.
    package init() {}
}
