package import AssentLog
import Foundation
import AssentSync
import Synchronization

/// Sends queued notifications off the request path. A dispatcher claims due deliveries from the database (with a
/// lease, so several instances can share the queue) and runs at most ``Policy/concurrency`` sends at once; each
/// result — delivered, stale token, retry at a backed-off time, failed — is written back with a timeline entry.
/// Woken at once when a challenge queues something, otherwise it polls. A restart loses nothing: what was queued is
/// in the database, and a lease held by a stopped worker lapses.
package final class PushDeliveryWorker: Sendable {
    /// Concurrency, leases and retries.
    package struct Policy: Sendable {
        /// Most sends in flight (all providers together).
        package var concurrency = 64
        /// How long a claim holds a delivery, in milliseconds (longer than any request's timeout).
        var lease: Int64 = 60_000
        /// Retry spacing.
        package var retry = PushRetrySchedule()
        /// Pause between checks of the queue when nothing woke the worker.
        var pollInterval = Duration.seconds(1)
        /// Finished deliveries and timeline entries older than this (milliseconds) are deleted.
        var retention: Int64 = 24 * 3_600_000

        /// The defaults.
        package init() {}
    }

    private let store: any PushDeliveryStore
    private let tenants: any TenantStore
    private let senders: [PushSettings.Provider: any PushSender]
    private let clock: WallClock
    private let logger: Logger
    private let policy: Policy
    /// Counts attempts by provider and result.
    private let metrics: DomainMetrics?
    private let loop: PeriodicLoop
    /// When the queue was last swept.
    private let lastSweep = AssentLock<Int64>(0)
    private let inFlight = Atomic<Int>(0)
    /// The earliest retry this worker scheduled and has not looked for yet, so it wakes for it instead of at the next
    /// poll (another instance's retries are found by polling).
    private let earliestRetry = AssentLock<Int64?>(nil)

    package init(
        store: any PushDeliveryStore, tenants: any TenantStore, senders: [PushSettings.Provider: any PushSender],
        clock: WallClock, logger: Logger, policy: Policy, ticks: any Clock<Duration> = ContinuousClock(),
        metrics: DomainMetrics? = nil
    ) {
        self.metrics = metrics
        loop = PeriodicLoop(clock: ticks)
        self.store = store
        self.tenants = tenants
        self.senders = senders
        self.clock = clock
        self.logger = logger
        self.policy = policy
    }

    /// Starts the dispatcher.
    package func start() {
        loop.start { [self] group in await round(&group) }
    }

    /// Something was queued: look now instead of at the next poll.
    package func wake() { loop.wake() }

    /// Stops claiming and waits for the sends in flight; what is still queued stays for the next start.
    package func stop() async { await loop.stop() }

    /// Claims what is due (as many as there is room for) and starts sending it; pauses until the next poll or the
    /// earliest retry this worker scheduled, unless the claim was full.
    private func round(_ group: inout DiscardingTaskGroup) async -> PeriodicLoop.Pause {
        let free = policy.concurrency - inFlight.load(ordering: .acquiring)
        if free > 0 {
            do {
                let now = clock.nowMilliseconds()
                let limit = min(free, 64)
                let claimed = try await store.claimDuePushDeliveries(now: now, leaseUntil: now + policy.lease, limit: limit)
                for delivery in claimed {
                    inFlight.add(1, ordering: .acquiringAndReleasing)
                    group.addTask {
                        await self.attempt(delivery)
                        self.inFlight.subtract(1, ordering: .acquiringAndReleasing)
                        self.wake()
                    }
                }
                let sweepDue = lastSweep.withLock { last in
                    guard now - last > 60_000 else { return false }
                    last = now
                    return true
                }
                if sweepDue { _ = try await store.sweepPushDeliveries(before: now - policy.retention) }
                if claimed.count == limit { return .none }
            } catch {
                logger.log(.error, "push queue read failed", ["error": .string(String(describing: error))])
            }
        }
        let now = clock.nowMilliseconds()
        var pause = policy.pollInterval
        earliestRetry.withLock { earliest in
            guard let due = earliest else { return }
            if due <= now {
                earliest = nil
                pause = .zero
            } else {
                pause = min(pause, .milliseconds(due - now))
            }
        }
        return pause > .zero ? .upTo(pause) : .none
    }

    private func attempt(_ claimed: PushDelivery) async {
        var delivery = claimed
        delivery.attempts += 1
        delivery.claimedUntil = nil
        let fields: [String: LogValue] = [
            "deliveryId": .string(delivery.id), "tenantId": .string(delivery.tenantID),
            "provider": .string(delivery.provider.rawValue), "attempt": .int(delivery.attempts),
        ]
        let outcome: PushOutcome
        if let tenant = try? await tenants.tenant(id: delivery.tenantID), let sender = senders[delivery.provider] {
            outcome = await sender.send(delivery, tenant: tenant)
        } else {
            outcome = .failed(status: nil, reason: "provider_not_configured")
        }
        let now = clock.nowMilliseconds()
        var entry = ChallengeTimelineEntry(
            event: "", tenantID: delivery.tenantID, challengeID: delivery.challengeID, at: now,
            authenticatorID: delivery.authenticatorID, provider: delivery.provider.rawValue, attempt: delivery.attempts)
        var staleCode: String?
        switch outcome {
        case .delivered(let status):
            delivery.state = .delivered
            delivery.lastError = nil
            entry.event = "push.delivered"
            entry.status = status
        case .staleToken(let code, let status, let reason):
            delivery.state = .staleToken
            delivery.lastError = reason
            staleCode = code
            entry.event = "push.stale_token"
            entry.status = status == 0 ? nil : status
            entry.detail = code
        case .retry(let status, let reason, let retryAfter, _):
            entry.status = status
            entry.detail = reason
            delivery.lastError = reason
            if let next = policy.retry.nextAttempt(
                afterAttempt: delivery.attempts, now: now, expiresAt: delivery.expiresAt, retryAfter: retryAfter)
            {
                delivery.nextAttemptAt = next
                entry.event = "push.retry"
            } else {
                delivery.state = .expired
                entry.event = "push.expired"
            }
        case .failed(let status, let reason):
            delivery.state = .failed
            delivery.lastError = reason
            entry.event = "push.failed"
            entry.status = status
            entry.detail = reason
        }
        let result: DomainMetrics.PushResult = switch outcome {
        case .delivered: .delivered
        case .staleToken: .staleToken
        case .retry: delivery.state == .expired ? .expired : .retry
        case .failed: .failed
        }
        metrics?.pushDelivery(delivery.provider, result)
        let level: Logger.Level = switch delivery.state {
        case .delivered: .debug  // the timeline has it; one line per notification would flood the log
        case .queued: .warning
        default: .error
        }
        var logged = fields
        if let status = entry.status { logged["status"] = .int(status) }
        if let detail = entry.detail { logged["detail"] = .string(detail) }
        logger.log(level, entry.event, logged)
        do {
            try await store.recordPushAttempt(
                delivery, sentToken: delivery.pushToken, staleCode: staleCode, entry: entry)
            if delivery.state == .queued {
                let next = delivery.nextAttemptAt
                earliestRetry.withLock { $0 = min($0 ?? next, next) }
            }
        } catch {
            logger.log(.error, "push attempt not recorded", fields.merging(["error": .string(String(describing: error))]) { $1 })
        }
    }
}
