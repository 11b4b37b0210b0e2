import AssentSync

/// The background loop every worker runs (the sweeper, the webhook outbox, the push queue, the challenge re-check):
/// a round, then a pause that ``wake()`` ends early, until ``stop()``. Pauses are measured on an injected `Clock`, so
/// tests drive a loop with a manual clock instead of sleeping. Work a round adds to the task group runs beside the
/// next rounds; ``stop()`` cancels the loop and waits for that work too.
package final class PeriodicLoop: Sendable {
    /// What follows a round.
    package enum Pause: Sendable, Equatable {
        /// The next round at once (the round left work behind).
        case none
        /// The next round after this long, or at the next ``PeriodicLoop/wake()`` if that comes first.
        case upTo(Duration)
    }

    /// One round: does its work (or hands it to the group) and says how long to pause.
    package typealias Round = @Sendable (inout DiscardingTaskGroup) async -> Pause

    private let signal: WakeSignal
    private let task = AssentLock<Task<Void, Never>?>(nil)

    /// A loop that pauses on `clock`. Nothing runs before ``start(_:)``.
    package init(clock: any Clock<Duration>) {
        signal = WakeSignal(clock: clock)
    }

    /// Runs `round` now and again until ``stop()``; a call while running does nothing. The round may capture its
    /// owner: the loop holds it only while running.
    package func start(_ round: @escaping Round) {
        task.withLock { current in
            guard current == nil else { return }
            current = Task { [signal] in
                await withDiscardingTaskGroup { group in
                    while !Task.isCancelled {
                        switch await round(&group) {
                        case .none: continue
                        case .upTo(let pause): await signal.wait(upTo: pause)
                        }
                    }
                }
            }
        }
    }

    /// Ends the current (or next) pause at once.
    package func wake() { signal.signal() }

    /// Cancels the loop, ends its pause, and returns when the last round and the work it started have finished.
    package func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        signal.signal()
        await running?.value
    }
}
