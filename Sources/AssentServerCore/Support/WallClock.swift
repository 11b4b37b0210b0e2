import Foundation

/// Wall-clock time in milliseconds since the Unix epoch, injected wherever expiry matters so tests never sleep.
package struct WallClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock reading `now`.
    package init(_ now: @escaping @Sendable () -> Int64) { read = now }

    /// The system clock.
    package static let system = WallClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Milliseconds since the epoch.
    package func nowMilliseconds() -> Int64 { read() }
    /// Whole seconds since the epoch.
    package func nowSeconds() -> Int64 { read() / 1000 }
}
