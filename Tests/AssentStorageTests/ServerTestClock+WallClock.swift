import AssentServerCore
import AssentTestSupport

extension ServerTestClock {
    /// This clock's wall reading as the server's injected `WallClock`.
    var wallClock: WallClock { WallClock { [self] in nowMilliseconds } }

    /// Moves the clock on by whole days.
    func advance(days: Int64) { advance(seconds: days * 86_400) }
}
