import AssentServerCore
import AssentTestSupport

extension ServerTestClock {
    /// This clock's wall reading as the server's injected `WallClock`.
    var wallClock: WallClock { WallClock { [self] in nowMilliseconds } }
}
