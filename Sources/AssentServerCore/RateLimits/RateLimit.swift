/// How often something may happen: `count` times per `periodSeconds`, in bursts of up to `count` (a token bucket that
/// holds `count` tokens and refills at `count / periodSeconds` a second).
package struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    /// Tokens the bucket holds: the largest burst.
    package var count: Int
    /// Seconds in which an empty bucket refills completely.
    package var periodSeconds: Double

    /// `count` per `periodSeconds`.
    package init(count: Int, periodSeconds: Double) {
        self.count = count
        self.periodSeconds = periodSeconds
    }

    /// Tokens added per second.
    package var refillPerSecond: Double { Double(count) / periodSeconds }

    /// `COUNT/PERIOD`, with the period in seconds or with a unit: `30/60`, `30/60s`, `30/1m`, `10/1h`. Nil for anything
    /// else, a count outside 1…10⁹ or a period outside 1 ms…1 day.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), (1...1_000_000_000).contains(count) else { return nil }
        var period = Substring(parts[1])
        var unit = 1.0
        if let last = period.last, last.isLetter {
            switch last {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            default: return nil
            }
            period = period.dropLast()
        }
        guard let number = Double(period), number.isFinite, (0.001...86_400).contains(number * unit) else { return nil }
        self.init(count: count, periodSeconds: number * unit)
    }

    /// `COUNT/SECONDSs`, as ``init(parsing:)`` reads it.
    package var description: String {
        let seconds = periodSeconds.rounded() == periodSeconds ? String(Int(periodSeconds)) : String(periodSeconds)
        return "\(count)/\(seconds)s"
    }
}
