import AssentLog
import AssentSync

/// What `assentd` does, counted for `/metrics` beside the HTTP series: challenges by kind and outcome, push
/// deliveries by provider and result, PowerAuth verifications, rate-limited requests by class, the webhook outbox's
/// depth and age (sampled by ``MetricsSampler``) and store operation latency.
///
/// Every label value comes from a closed set in the code (an enum case, a rate-limit rule, a store operation's name),
/// never from a request, and no series carries a tenant, so the number of series is bounded whatever clients send.
/// Counters with a fixed label set are written from the start at 0, so a rate over them exists before the first
/// event. Counters are per process: with several instances, sum them. `expired` is the exception that proves it:
/// expiry is no request's doing, so the sampler counts it from the shared store, each expiry once across instances.
package final class DomainMetrics: Sendable {
    /// What became of a challenge.
    package enum ChallengeOutcome: String, CaseIterable, Sendable {
        /// Started by an initiating page (push) or a QR page.
        case started
        /// Approved by a device.
        case approved
        /// Denied by a device (a wrong verification code declines too).
        case denied
        /// Still unanswered when it expired.
        case expired
    }

    /// How a PowerAuth signature verification ended.
    package enum PowerAuthResult: String, CaseIterable, Sendable {
        /// It verified on an active activation.
        case valid
        /// It did not verify.
        case invalid
        /// The activation is blocked (or was just blocked by this failure).
        case blocked
    }

    /// How one push delivery attempt ended.
    package enum PushResult: String, CaseIterable, Sendable {
        /// The provider accepted the notification.
        case delivered
        /// The provider said the push token is dead.
        case staleToken = "stale_token"
        /// Scheduled for another attempt.
        case retry
        /// Given up: the challenge expired before an attempt succeeded.
        case expired
        /// Refused for good (bad credentials, topic, payload, provider not configured).
        case failed
    }

    /// The format of a device attestation an enrolment carried (`none`: it carried none).
    package enum AttestationFormat: String, CaseIterable, Sendable {
        case appleAppAttest = "apple-appattest"
        case androidKey = "android-key"
        case none
    }

    /// What the server made of an enrolment's device attestation.
    package enum AttestationOutcome: String, CaseIterable, Sendable {
        /// It verified (the verdict is stored with the credential).
        case verified
        /// It did not verify (`attestation_invalid`).
        case invalid
        /// Its challenge was unknown, spent, expired or another user's (`attestation_challenge_invalid`).
        case challengeInvalid = "challenge_invalid"
        /// None came and the tenant requires one (`attestation_required`).
        case missing
    }

    /// How a read of the Android attestation status list ended.
    package enum StatusListResult: String, CaseIterable, Sendable {
        /// A good copy replaced the one there was.
        case ok
        /// No answer, a bad status, or a list that does not parse: the copy there was stays.
        case failed
    }

    /// Upper bounds (seconds) of the store latency buckets; `+Inf` is implied.
    package static let storeLatencyBuckets: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]

    private struct ChallengeKey: Hashable {
        let kind: Challenge.Kind
        let outcome: ChallengeOutcome
    }

    private struct PushKey: Hashable {
        let provider: PushSettings.Provider
        let result: PushResult
    }

    private struct AttestationKey: Hashable {
        let format: AttestationFormat
        let outcome: AttestationOutcome
    }

    private struct Storage {
        var challenges: [ChallengeKey: Int] = [:]
        var attestations: [AttestationKey: Int] = [:]
        var statusListFetches: [StatusListResult: Int] = [:]
        var pushDeliveries: [PushKey: Int] = [:]
        var powerAuth: [PowerAuthResult: Int] = [:]
        var rateLimited: [RateLimitRule: Int] = [:]
        var storeOperations: [String: PrometheusHistogram] = [:]
        var outboxDepth: Int?
        var outboxOldestAgeSeconds: Double?
    }

    private let storage: AssentLock<Storage>
    /// Per-tenant challenge counts for the admin console's overview, when kept (the server keeps them).
    package let overview: OverviewTally?

    /// Metrics with every fixed-label counter at 0; `overview` also gets the per-tenant challenge counts.
    package init(overview: OverviewTally? = nil) {
        self.overview = overview
        var initial = Storage()
        for kind in [Challenge.Kind.push, .qrCode] {
            for outcome in ChallengeOutcome.allCases { initial.challenges[ChallengeKey(kind: kind, outcome: outcome)] = 0 }
        }
        for result in PowerAuthResult.allCases { initial.powerAuth[result] = 0 }
        for rule in RateLimitRule.allCases { initial.rateLimited[rule] = 0 }
        for format in [AttestationFormat.appleAppAttest, .androidKey] {
            for outcome in [AttestationOutcome.verified, .invalid, .challengeInvalid] {
                initial.attestations[AttestationKey(format: format, outcome: outcome)] = 0
            }
        }
        initial.attestations[AttestationKey(format: .none, outcome: .missing)] = 0
        for result in StatusListResult.allCases { initial.statusListFetches[result] = 0 }
        storage = AssentLock(initial)
    }

    /// Counts `count` challenges of `kind` reaching `outcome`.
    package func challenge(_ kind: Challenge.Kind, _ outcome: ChallengeOutcome, count: Int = 1) {
        guard count > 0 else { return }
        storage.withLock { $0.challenges[ChallengeKey(kind: kind, outcome: outcome), default: 0] += count }
    }

    /// Counts `count` challenges of `kind` of `tenantID` reaching `outcome`: in the process-wide series, and in the
    /// tenant's overview counts.
    package func challenge(_ kind: Challenge.Kind, _ outcome: ChallengeOutcome, tenantID: String, count: Int = 1) {
        challenge(kind, outcome, count: count)
        overview?.record(tenantID: tenantID, kind: kind, outcome: outcome, count: count)
    }

    /// Counts one push delivery attempt to `provider` that ended in `result`.
    package func pushDelivery(_ provider: PushSettings.Provider, _ result: PushResult) {
        storage.withLock { $0.pushDeliveries[PushKey(provider: provider, result: result), default: 0] += 1 }
    }

    /// Counts one PowerAuth signature verification.
    package func powerAuthVerification(_ result: PowerAuthResult) {
        storage.withLock { $0.powerAuth[result, default: 0] += 1 }
    }

    /// Counts one enrolment's device attestation of `format` that came to `outcome`.
    package func attestationVerdict(_ format: AttestationFormat, _ outcome: AttestationOutcome) {
        storage.withLock { $0.attestations[AttestationKey(format: format, outcome: outcome), default: 0] += 1 }
    }

    /// The count of attestations of `format` that came to `outcome` (for tests).
    package func attestationVerdictCount(_ format: AttestationFormat, _ outcome: AttestationOutcome) -> Int {
        storage.withLock { $0.attestations[AttestationKey(format: format, outcome: outcome)] ?? 0 }
    }

    /// Counts one read of the Android attestation status list.
    package func androidStatusListFetch(_ result: StatusListResult) {
        storage.withLock { $0.statusListFetches[result, default: 0] += 1 }
    }

    /// The count of status list reads that ended in `result` (for tests).
    package func androidStatusListFetchCount(_ result: StatusListResult) -> Int {
        storage.withLock { $0.statusListFetches[result] ?? 0 }
    }

    /// Counts one request refused by `rule`.
    package func rateLimited(_ rule: RateLimitRule) {
        storage.withLock { $0.rateLimited[rule, default: 0] += 1 }
    }

    /// Records how long one store operation took. `operation` is the store method's name (a closed set).
    package func storeOperation(_ operation: String, seconds: Double) {
        storage.withLock {
            $0.storeOperations[operation, default: PrometheusHistogram(bounds: Self.storeLatencyBuckets)].observe(seconds)
        }
    }

    /// Sets the webhook outbox gauges: events waiting, and the age of the oldest in seconds (0 when none waits).
    package func webhookOutbox(depth: Int, oldestAgeSeconds: Double) {
        storage.withLock {
            $0.outboxDepth = depth
            $0.outboxOldestAgeSeconds = oldestAgeSeconds
        }
    }

    /// The count of `kind` challenges that reached `outcome` (for tests and the sampler's log).
    package func challengeCount(_ kind: Challenge.Kind, _ outcome: ChallengeOutcome) -> Int {
        storage.withLock { $0.challenges[ChallengeKey(kind: kind, outcome: outcome)] ?? 0 }
    }

    /// All series in the Prometheus text exposition format 0.0.4, series sorted by labels. The outbox gauges appear
    /// once sampled.
    package func prometheusText() -> String {
        let snapshot = storage.withLock { $0 }
        var text = ""
        text += PrometheusText.counter(
            "assent_challenges_total", "Challenges started, and answered or expired, by kind and outcome.",
            snapshot.challenges.map { ([("kind", $0.key.kind.rawValue), ("outcome", $0.key.outcome.rawValue)], $0.value) })
        text += PrometheusText.counter(
            "assent_push_deliveries_total", "Push notification attempts to APNs and FCM, by provider and result.",
            snapshot.pushDeliveries.map { ([("provider", $0.key.provider.rawValue), ("result", $0.key.result.rawValue)], $0.value) })
        text += PrometheusText.counter(
            "assent_powerauth_verifications_total", "PowerAuth signature verifications, by result.",
            snapshot.powerAuth.map { ([("result", $0.key.rawValue)], $0.value) })
        text += PrometheusText.counter(
            "assent_rate_limited_requests_total", "Requests refused by a rate limit, by the limit's class.",
            snapshot.rateLimited.map { ([("class", $0.key.rawValue)], $0.value) })
        text += PrometheusText.counter(
            "assent_attestation_verdicts_total", "Device attestations of enrolments, by format and outcome.",
            snapshot.attestations.map { ([("format", $0.key.format.rawValue), ("outcome", $0.key.outcome.rawValue)], $0.value) })
        text += PrometheusText.counter(
            "assent_android_status_list_fetches_total", "Reads of the Android attestation status list, by result.",
            snapshot.statusListFetches.map { ([("result", $0.key.rawValue)], $0.value) })

        if let depth = snapshot.outboxDepth, let age = snapshot.outboxOldestAgeSeconds {
            text += PrometheusText.gauge(
                "assent_webhook_outbox_depth", "Webhook events waiting to be delivered (sampled from the store).", "\(depth)")
            text += PrometheusText.gauge(
                "assent_webhook_outbox_oldest_age_seconds",
                "Age of the oldest webhook event waiting to be delivered, 0 when none waits (sampled from the store).",
                PrometheusText.number(age))
        }

        text += PrometheusText.header(
            "assent_store_operation_duration_seconds", "histogram", "Time a store operation took, by operation.")
        for (operation, histogram) in snapshot.storeOperations.sorted(by: { $0.key < $1.key }) {
            text += histogram.series("assent_store_operation_duration_seconds", labels: [("operation", operation)])
        }
        return text
    }
}
