import Foundation

/// Wall-clock time for the SDK, injected so tests fix the moment that time-based signatures cover
/// (``AssentWire/SignedMessage/timeWindow(unixSeconds:)``) instead of racing the real clock.
public struct AssentClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that reads `now`, in milliseconds since the Unix epoch.
    public init(_ now: @escaping @Sendable () -> Int64) { read = now }

    /// A clock fixed at `unixSeconds`.
    public static func fixed(unixSeconds: Int64) -> AssentClock { AssentClock { unixSeconds * 1000 } }

    /// The system's real-time clock.
    public static let system = AssentClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds since the Unix epoch.
    public func nowMilliseconds() -> Int64 { read() }

    /// Whole seconds since the Unix epoch (rounded down).
    public func nowSeconds() -> Int64 {
        let milliseconds = read()
        return milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }
}
