import AssentTestSupport
import Testing
@testable import AssentServerCore

/// The pause under every background loop: a wait ends at its time limit even when the limit runs out before the wait
/// has begun, and a signal ends it early.
@Suite struct WakeSignalTests {
    /// A clock whose sleeps end at once: every wait's limit runs out while the wait is still being set up.
    private struct ElapsedClock: Clock {
        var now: ContinuousClock.Instant { ContinuousClock.now }
        var minimumResolution: Duration { .zero }
        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {}
    }

    @Test func `a limit that runs out before the wait begins still ends the wait`() async throws {
        let signal = WakeSignal(clock: ElapsedClock())
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for _ in 0..<1_000 {
                    await signal.wait(upTo: .zero)
                    if Task.isCancelled { return false }
                }
                return true
            }
            group.addTask {
                // Alone this takes milliseconds; beside the full parallel suite, whose tests hold the cooperative
                // threads, it has taken up to 40 s. Only a wait that never returns should reach this bound.
                try await Task.sleep(for: .seconds(300))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            signal.signal()  // lets a wait that lost its limit return, so the group can end
            return first
        }
        #expect(finished, "a wait whose limit ran out first never returned")
    }

    @Test func `a signal ends the current wait, or the next one when nobody waits`() async throws {
        let clock = ServerTestClock()
        let signal = WakeSignal(clock: clock)
        signal.signal()
        await signal.wait(upTo: .seconds(3600))  // the pending signal: returns at once
        async let waited: Void = signal.wait(upTo: .seconds(3600))
        do {
            try await clock.waitForSleepers(timeout: .seconds(300))
        } catch {
            // The wait ignores cancellation and its limit is on a clock nobody advances: leaving the scope with it
            // pending would wait for ever (a make test run hung here when the 10 s default ran out under load).
            signal.signal()
            await waited
            throw error
        }
        signal.signal()
        await waited
        #expect(clock.sleepers == 0, "the ended wait's timer was cancelled")
    }
}
