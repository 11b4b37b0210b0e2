/// What the metrics sampler reads from the store: figures no single request produces. Every method is one atomic
/// unit (see ``ServerStore``).
package protocol MetricsStore: Sendable {
    /// Webhook events neither delivered nor given up: how many, and when the oldest was queued (nil when none).
    func webhookOutboxBacklog() async throws -> WebhookOutboxBacklog

    /// Challenges that expired unanswered (still `pending` or `claimed`) after the previous count and by `now`, by
    /// kind. Each expiry is counted once across every instance sharing the store: the count and the moving of the
    /// stored watermark are one transaction under a lock. The first call only sets the watermark (expiries from
    /// before any instance counted are not reported), and a `now` behind the watermark (a clock stepped back on
    /// one instance) counts nothing. The same transaction adds them to the tenants' per-minute overview counts
    /// (``OverviewStore``), each under the minute it expired in, and writes each expiry of a challenge with a user as
    /// an `expired` row of the authentication history (``SignInHistoryStore``) with the webhook events `signInEvents`
    /// makes of the row.
    func countExpiredChallenges(
        through now: Int64, signInEvents: (@Sendable (SignIn) -> [WebhookEvent])?
    ) async throws -> [Challenge.Kind: Int]
}

extension MetricsStore {
    /// ``countExpiredChallenges(through:signInEvents:)`` queuing no webhook event for the expiries.
    package func countExpiredChallenges(through now: Int64) async throws -> [Challenge.Kind: Int] {
        try await countExpiredChallenges(through: now, signInEvents: nil)
    }
}
