import AssentTestSupport
import Synchronization
import Testing
@testable import AssentServerCore

/// The loop every background worker runs, driven by a manual clock: nothing here sleeps for a worker's interval.
@Suite struct PeriodicLoopTests {
    private final class Rounds: Sendable {
        private let count = Atomic<Int>(0)
        func tick() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Waits (bounded) until `rounds` reaches `expected`; the loop runs on its own task.
    private func expectRounds(_ rounds: Rounds, _ expected: Int) async throws {
        let limit = ContinuousClock.now + .seconds(10)
        while rounds.value < expected, ContinuousClock.now < limit { try await Task.sleep(for: .milliseconds(2)) }
        #expect(rounds.value == expected)
    }

    @Test func `the first round runs at start, the next only once the pause has passed on the clock`() async throws {
        let clock = ServerTestClock()
        let rounds = Rounds()
        let loop = PeriodicLoop(clock: clock)
        loop.start { _ in
            rounds.tick()
            return .upTo(.seconds(60))
        }
        try await clock.waitForSleepers()
        #expect(rounds.value == 1)
        clock.advance(by: .seconds(59))
        try await clock.waitForSleepers()
        #expect(rounds.value == 1)
        clock.advance(by: .seconds(1))
        try await expectRounds(rounds, 2)
        try await clock.waitForSleepers()
        await loop.stop()
        #expect(rounds.value == 2)
    }

    @Test func `wake ends a pause at once, and a round that left work goes again without pausing`() async throws {
        let clock = ServerTestClock()
        let rounds = Rounds()
        let loop = PeriodicLoop(clock: clock)
        loop.start { _ in
            rounds.tick()
            // The first three rounds say "more to do"; then pause for an hour.
            return rounds.value < 3 ? .none : .upTo(.seconds(3600))
        }
        try await clock.waitForSleepers()
        #expect(rounds.value == 3)
        loop.wake()
        try await expectRounds(rounds, 4)
        try await clock.waitForSleepers()
        await loop.stop()
        #expect(rounds.value == 4)
        #expect(clock.sleepers == 0)
    }

    @Test func `stop waits for the work a round handed to the group`() async throws {
        let clock = ServerTestClock()
        let finished = Rounds()
        let loop = PeriodicLoop(clock: clock)
        loop.start { group in
            group.addTask {
                // Cancelled with the loop, but still finishes before stop returns.
                try? await Task.sleep(for: .milliseconds(50))
                finished.tick()
            }
            return .upTo(.seconds(3600))
        }
        try await clock.waitForSleepers()
        await loop.stop()
        #expect(finished.value == 1)
    }
}
