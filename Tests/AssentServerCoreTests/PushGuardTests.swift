import Testing
@testable import AssentServerCore

/// The push-bombing rule on its own: three consecutive failures within ten minutes throttle, further failures
/// double the throttle, a quiet spell or an approval starts afresh, a fraud report locks.
@Suite struct PushGuardTests {
    static let t0: Int64 = 1_000_000_000

    func guarded() -> PushGuard { PushGuard(tenantID: "t", userID: "u", now: Self.t0) }

    @Test func `three failures within ten minutes throttle, each further one doubles the wait`() {
        var state = guarded()
        state.recordFailure(at: Self.t0, throttleSeconds: 60)
        state.recordFailure(at: Self.t0 + 60_000, throttleSeconds: 60)
        #expect(state.refusal(at: Self.t0 + 60_000) == nil)
        state.recordFailure(at: Self.t0 + 599_000, throttleSeconds: 60)
        let first = state.refusal(at: Self.t0 + 599_000)
        #expect(first?.code == .pushThrottled && first?.retryAfterSeconds == 60)
        state.recordFailure(at: Self.t0 + 600_000, throttleSeconds: 60)
        #expect(state.refusal(at: Self.t0 + 600_000)?.retryAfterSeconds == 120)
        state.recordFailure(at: Self.t0 + 601_000, throttleSeconds: 60)
        #expect(state.refusal(at: Self.t0 + 601_000)?.retryAfterSeconds == 240)
        #expect(state.refusal(at: Self.t0 + 601_000 + 240_000) == nil)
    }

    @Test func `failures spread over more than ten minutes do not throttle`() {
        var state = guarded()
        for minute in [0, 6, 12, 18] as [Int64] {
            state.recordFailure(at: Self.t0 + minute * 60_000, throttleSeconds: 60)
            #expect(state.refusal(at: Self.t0 + minute * 60_000) == nil)
        }
    }

    @Test func `a failure long after the throttle ended starts afresh`() {
        var state = guarded()
        for i in 0..<4 { state.recordFailure(at: Self.t0 + Int64(i), throttleSeconds: 60) }
        #expect(state.throttleLevel == 2)
        let later = Self.t0 + 3 + 120_000 + PushGuard.window + 1
        state.recordFailure(at: later, throttleSeconds: 60)
        #expect(state.throttleLevel == 0 && state.consecutiveFailures == 1 && state.refusal(at: later) == nil)
    }

    @Test func `the throttle never exceeds an hour`() {
        var state = guarded()
        for i in 0..<40 { state.recordFailure(at: Self.t0 + Int64(i), throttleSeconds: 3600) }
        #expect(state.refusal(at: Self.t0 + 39)?.retryAfterSeconds == 3600)
    }

    @Test func `an approval ends the count and the throttle but not a fraud lock; a reset ends both`() {
        var state = guarded()
        for i in 0..<3 { state.recordFailure(at: Self.t0 + Int64(i), throttleSeconds: 60) }
        state.lock(at: Self.t0 + 3, seconds: 3600)
        state.recordApproval(at: Self.t0 + 4)
        #expect(state.consecutiveFailures == 0 && state.throttledUntil == nil)
        let locked = state.refusal(at: Self.t0 + 4)
        #expect(locked?.code == .pushLocked && locked?.retryAfterSeconds == 3600)
        state.reset(at: Self.t0 + 5)
        #expect(state.refusal(at: Self.t0 + 5) == nil)
    }

    @Test func `expiries count once, in time order, and not from before the mark`() {
        var state = guarded()
        state.countExpiries([Self.t0 - PushGuard.window - 1, Self.t0 + 2000, Self.t0 + 1000], through: Self.t0 + 3000, throttleSeconds: 60)
        #expect(state.consecutiveFailures == 2 && state.recentFailures == [Self.t0 + 1000, Self.t0 + 2000])
        state.countExpiries([Self.t0 + 2000], through: Self.t0 + 4000, throttleSeconds: 60)
        #expect(state.consecutiveFailures == 2 && state.expiriesCountedThrough == Self.t0 + 4000)
    }
}
