import AssentSync

/// Counts warnings that can come once per request or connection, so a flood of them cannot flood the log.
///
/// Per kind of warning (its message), the first ``limit`` in an interval are written; the rest are counted, and once
/// the interval has ended one summary line says how many were left out. The interval of a kind starts with its first
/// warning. The clock is injected (monotonic seconds), so tests drive it by hand. The decision is here; the writing
/// is ``Logger/repeatedWarning(_:_:)``.
package final class WarningLimiter: Sendable {
    /// A kind whose interval has ended with some of its warnings left out.
    package struct Suppressed: Equatable, Sendable {
        /// The message of the warnings left out.
        package let message: String
        /// How many were left out.
        package let count: Int
    }

    /// What to do with one warning.
    package struct Decision: Sendable {
        /// Whether to write this warning.
        package let write: Bool
        /// Whether it is the first one left out in its interval (the caller may arrange for the summary then).
        package let firstSuppressed: Bool
        /// Summaries of intervals that had ended, to write first.
        package let ended: [Suppressed]
    }

    /// Warnings of one kind written per interval.
    package let limit: Int
    /// The interval, in seconds.
    package let interval: Double

    private struct Window {
        var start: Double
        var written: Int
        var suppressed: Int
    }

    private let windows = AssentLock<[String: Window]>([:])
    private let now: @Sendable () -> Double

    /// A limiter writing `limit` warnings of each kind per `interval` seconds; `now` returns monotonic seconds.
    package init(limit: Int = 10, interval: Double = 60, now: @escaping @Sendable () -> Double = WarningLimiter.monotonicSeconds) {
        self.limit = limit
        self.interval = interval
        self.now = now
    }

    /// Decides about one warning with `message`, and hands back the summaries of intervals that have ended.
    package func admit(_ message: String) -> Decision {
        let time = now()
        return windows.withLock { windows in
            let ended = Self.takeEnded(&windows, at: time, interval: interval)
            var window = windows[message] ?? Window(start: time, written: 0, suppressed: 0)
            let write = window.written < limit
            if write { window.written += 1 } else { window.suppressed += 1 }
            windows[message] = window
            return Decision(write: write, firstSuppressed: !write && window.suppressed == 1, ended: ended)
        }
    }

    /// The summaries of intervals that have ended (each returned once); their kinds start afresh.
    package func takeEnded() -> [Suppressed] {
        let time = now()
        return windows.withLock { Self.takeEnded(&$0, at: time, interval: interval) }
    }

    /// Seconds until the interval of `message` ends (0 when it has, or when there is none).
    package func remaining(_ message: String) -> Double {
        let time = now()
        return windows.withLock { windows in
            guard let window = windows[message] else { return 0 }
            return max(0, window.start + interval - time)
        }
    }

    private static func takeEnded(_ windows: inout [String: Window], at time: Double, interval: Double) -> [Suppressed] {
        var ended: [Suppressed] = []
        for (message, window) in windows where time >= window.start + interval {
            if window.suppressed > 0 { ended.append(Suppressed(message: message, count: window.suppressed)) }
            windows[message] = nil
        }
        return ended.sorted { $0.message < $1.message }
    }

    /// `CLOCK_MONOTONIC` in seconds.
    package static let monotonicSeconds: @Sendable () -> Double = {
        ContinuousClock.now.timeIntervalSinceStart
    }
}

extension ContinuousClock.Instant {
    fileprivate var timeIntervalSinceStart: Double {
        let components = (self - WarningLimiter.origin).components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension WarningLimiter {
    fileprivate static let origin = ContinuousClock.now
}
