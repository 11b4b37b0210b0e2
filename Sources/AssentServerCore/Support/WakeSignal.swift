import Synchronization

/// A one-slot wake-up: ``signal()`` ends the current or next ``wait(upTo:)`` early. The wait's time limit runs on an
/// injected clock.
final class WakeSignal: Sendable {
    private let clock: any Clock<Duration>
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// A signal whose waits time out on `clock`.
    init(clock: any Clock<Duration>) { self.clock = clock }

    /// Wakes the waiter, or the next one to wait.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns after a ``signal()`` or `limit` on the clock, whichever is first.
    func wait(upTo limit: Duration) async {
        let timer = Task { [self, clock] in
            try? await clock.sleep(for: limit)
            signal()
        }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
        state.withLock { $0.pending = false }
    }
}
