package import AssentLog
import AssentSync

/// Summaries of rate-limit trips in the audit log: requests a tenant-scoped limit refused (per user, credential key or
/// tenant) are counted in memory per tenant and rule, and every ``interval`` each tenant that had any gets **one**
/// `rate_limit.tripped` entry with the counts — a flood of refusals writes one entry a minute, not one per request.
/// Refusals by client address come before any tenant is known and are not in a tenant's chain (the access log and
/// `/metrics` have them). What is counted when the server stops is written by ``stop()``.
package final class RateLimitTrips: Sendable {
    private let counts = AssentLock<[String: [String: Int]]>([:])
    private let audit: AuditLog
    private let logger: Logger
    private let loop: PeriodicLoop
    /// How often the counts are written.
    package static let interval = Duration.seconds(60)

    /// Trips recorded into `audit`; `ticks` paces the rounds (a manual clock in tests).
    package init(audit: AuditLog, logger: Logger, ticks: any Clock<Duration> = ContinuousClock()) {
        self.audit = audit
        self.logger = logger
        loop = PeriodicLoop(clock: ticks)
    }

    /// Counts one refusal of `rule` for a subject of `tenantID`.
    package func note(tenantID: String, rule: RateLimitRule) {
        counts.withLock { $0[tenantID, default: [:]][rule.rawValue, default: 0] += 1 }
    }

    /// Writes one entry per tenant with trips since the last flush, and forgets them; how many entries were written.
    @discardableResult
    package func flush() async -> Int {
        let pending = counts.withLock { counts -> [String: [String: Int]] in
            defer { counts = [:] }
            return counts
        }
        var written = 0
        for (tenantID, rules) in pending.sorted(by: { $0.key < $1.key }) {
            var details = rules.mapValues(String.init)
            details["total"] = String(rules.values.reduce(0, +))
            do {
                try await audit.record(tenantID: tenantID, .rateLimited, actor: "system", details: details)
                written += 1
            } catch {
                logger.warning("rate-limit summary not recorded", [
                    "tenantId": .string(tenantID), "error": .string(String(describing: error)),
                ])
            }
        }
        return written
    }

    /// Flushes every ``interval``.
    package func start() {
        loop.start { [self] _ in
            await flush()
            return .upTo(Self.interval)
        }
    }

    /// Stops the loop and writes what is left.
    package func stop() async {
        await loop.stop()
        await flush()
    }
}
