/// When a failed notification is tried again: `base` seconds after the first failure, doubling after each further
/// one, never more than `cap`, never before a provider's `Retry-After`, and never once the challenge has ended — a
/// notification for a challenge nobody can answer any more is worthless.
package struct PushRetrySchedule: Sendable, Hashable {
    /// Seconds before the first retry.
    package var base: Double = 1
    /// The longest wait between two attempts, in seconds.
    var cap: Double = 60

    /// The delay after the `attempts`-th failed attempt (1 for the first), in milliseconds.
    func delay(afterAttempt attempts: Int, retryAfter: Double? = nil) -> Int64 {
        let exponent = Double(max(attempts - 1, 0))
        var seconds = min(cap, base * Double(1 << Int(min(exponent, 30))))
        if let retryAfter, retryAfter > seconds { seconds = min(retryAfter, max(cap, seconds)) }
        return Int64(seconds * 1000)
    }

    /// The next attempt's time after the `attempts`-th failure at `now`, or nil when that would be at or after
    /// `expiresAt` (give up).
    func nextAttempt(afterAttempt attempts: Int, now: Int64, expiresAt: Int64, retryAfter: Double? = nil) -> Int64? {
        let next = now + delay(afterAttempt: attempts, retryAfter: retryAfter)
        return next < expiresAt ? next : nil
    }
}
