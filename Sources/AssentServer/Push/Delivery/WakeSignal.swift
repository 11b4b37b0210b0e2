import Synchronization

/// A one-slot wake-up: ``signal()`` ends the current or next ``wait(timeout:)`` early.
final class WakeSignal: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

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

    /// Returns after a ``signal()`` or `timeout` seconds, whichever is first.
    func wait(timeout: Double) async {
        let timer = Task { [self] in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
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
