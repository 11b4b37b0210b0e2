public import Assent
import AssentSync

/// A clock a test moves by hand: time stands still until ``advance(by:)`` moves it, so expiry, keep-alive windows
/// and time-window signatures are tested without sleeping and without racing the real clock.
///
/// ```swift
/// let time = ManualClock()
/// let assent = Assent(..., clock: time.clock, ...)
/// time.advance(by: .seconds(30))   // everything the SDK reads from `time.clock` from now on is 30 s later
/// ```
public final class ManualClock: Sendable {
    /// The instant a clock created without one starts at: 1 796 018 555 s after the Unix epoch (2026-11-30 06:02:35
    /// UTC), which is not on a 10-minute boundary (time-window messages are then `"2993364.0"`).
    public static let defaultUnixSeconds: Int64 = 1_796_018_555

    private let milliseconds: AssentLock<Int64>

    /// A clock standing at `unixSeconds` (``defaultUnixSeconds`` by default).
    public init(unixSeconds: Int64 = ManualClock.defaultUnixSeconds) {
        milliseconds = AssentLock(unixSeconds * 1000)
    }

    /// A clock standing at `milliseconds` since the Unix epoch.
    public init(milliseconds: Int64) {
        self.milliseconds = AssentLock(milliseconds)
    }

    /// The SDK's view of this clock, to pass as the `clock` of ``Assent/Assent``; it reads the current manual time
    /// on every call, so later ``advance(by:)`` calls are seen.
    public var clock: AssentClock { AssentClock { [self] in nowMilliseconds } }

    /// The current manual time, milliseconds since the Unix epoch.
    public var nowMilliseconds: Int64 { milliseconds.withLock { $0 } }

    /// Moves time forward (or back, for a negative `duration`) by `duration`, rounded down to whole milliseconds.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let step = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        milliseconds.withLock { $0 += step }
    }

    /// Moves time forward by `seconds` (fractions allowed, rounded toward zero to whole milliseconds).
    public func advance(seconds: Double) {
        milliseconds.withLock { $0 += Int64(seconds * 1000) }
    }
}
