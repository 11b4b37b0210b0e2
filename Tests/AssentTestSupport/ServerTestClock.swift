import AssentSync

/// The server tests' clock: time that moves only when a test says so. It is a `Clock`, so workers that pause on an
/// injected clock (`PeriodicLoop` and everything built on it) run under it without a test ever sleeping for their
/// interval, and it reads as wall-clock milliseconds (``nowMilliseconds``) for the expiry, TTL and token checks that
/// take a `now`. ``advance(by:)`` moves both and wakes every sleeper whose deadline it reaches. (An app's tests move
/// the SDK's time with `ManualClock` from the `AssentTesting` library instead, which hands out an `AssentClock`.)
package final class ServerTestClock: Clock, Sendable {
    /// A moment on this clock: the time advanced since it was made.
    package struct Instant: InstantProtocol {
        /// Time since the clock's start.
        package var offset: Duration

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var start: Int64
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state: AssentLock<State>

    /// A clock whose wall reading starts at `startMilliseconds` since the Unix epoch (default: early 2027).
    package init(startMilliseconds: Int64 = 1_800_000_000_000) {
        state = AssentLock(State(start: startMilliseconds))
    }

    /// The wall-clock reading: milliseconds since the Unix epoch.
    package var nowMilliseconds: Int64 {
        state.withLock { $0.start + $0.now.offset.components.seconds * 1000 + $0.now.offset.components.attoseconds / 1_000_000_000_000_000 }
    }

    /// The wall-clock reading in whole seconds.
    package var nowSeconds: Int64 { nowMilliseconds / 1000 }

    /// Moves the clock on by whole seconds.
    package func advance(seconds: Int64) { advance(by: .seconds(seconds)) }

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting for the clock to move.
    package var sleepers: Int { state.withLock { $0.sleepers.count } }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves the clock on by `duration` and wakes the sleepers that are now due.
    package func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (polling briefly, bounded by `timeout` of real time) until at least `count` sleeps are waiting, so a test
    /// advances the clock only once the worker has gone to sleep on it.
    package func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(10)) async throws {
        let limit = ContinuousClock.now + timeout
        while sleepers < count {
            guard ContinuousClock.now < limit else { throw ServerTestClockTimeout(expected: count, waiting: sleepers) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// ``ServerTestClock/waitForSleepers(_:timeout:)`` gave up.
package struct ServerTestClockTimeout: Error, CustomStringConvertible {
    /// Sleepers awaited.
    package var expected: Int
    /// Sleepers there were.
    package var waiting: Int
    package var description: String { "expected \(expected) sleeper(s) on the manual clock, found \(waiting)" }
}
