import Assent
import AssentTesting
import Testing

/// The manual clock stands still until it is moved, and the SDK's clock sees every move.
@Suite struct ManualClockTests {
    @Test func `a new clock stands at the default instant and does not move by itself`() {
        let time = ManualClock()
        #expect(time.nowMilliseconds == ManualClock.defaultUnixSeconds * 1000)
        #expect(time.clock.nowSeconds() == ManualClock.defaultUnixSeconds)
        #expect(time.clock.nowMilliseconds() == time.clock.nowMilliseconds())
    }

    @Test func `advancing moves the AssentClock it produced earlier`() {
        let time = ManualClock(unixSeconds: 1_000)
        let clock = time.clock
        time.advance(by: .seconds(30))
        #expect(clock.nowMilliseconds() == 1_030_000)
        time.advance(by: .milliseconds(250))
        #expect(clock.nowMilliseconds() == 1_030_250 && clock.nowSeconds() == 1_030)
        time.advance(seconds: 0.75)
        #expect(clock.nowMilliseconds() == 1_031_000)
    }

    @Test func `a clock can start at a millisecond instant and go back`() {
        let time = ManualClock(milliseconds: 5_999)
        #expect(time.clock.nowSeconds() == 5)
        time.advance(by: .milliseconds(-6_000))
        #expect(time.nowMilliseconds == -1 && time.clock.nowSeconds() == -1)
    }
}
