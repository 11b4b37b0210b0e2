import AssentSync

/// A one-slot wake-up: ``signal()`` ends the current or next ``wait(upTo:)`` early. The wait's time limit runs on an
/// injected clock, and only ever ends the wait it was set for: a limit that runs out late (or is cancelled) never
/// counts as a signal for a later wait, so a loop pausing on this never spins.
final class WakeSignal: Sendable {
    private struct State {
        /// A signal that came while nobody waited; the next wait returns at once.
        var pending = false
        /// The current wait, by the number it was given.
        var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
        var nextID: UInt64 = 0
    }

    private let clock: any Clock<Duration>
    private let state = AssentLock(State())

    /// A signal whose waits time out on `clock`.
    init(clock: any Clock<Duration>) { self.clock = clock }

    /// Wakes the waiter, or the next one to wait.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Returns after a ``signal()`` or `limit` on the clock, whichever is first.
    ///
    /// The timer starts only once the wait is stored: started before, a limit that ran out first (a short one, or a
    /// busy machine) found no wait to end, and the wait then lasted until the next signal.
    func wait(upTo limit: Duration) async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        var timer: Task<Void, Never>?
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = (id, continuation)
                return false
            }
            if resumeNow {
                continuation.resume()
                return
            }
            timer = Task { [self, clock] in
                do {
                    try await clock.sleep(for: limit)
                } catch {
                    return  // cancelled: the wait already ended
                }
                expire(id)
            }
        }
        timer?.cancel()
    }

    /// The time limit of wait `id` ran out: ends that wait if it is still the current one.
    private func expire(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }
}
