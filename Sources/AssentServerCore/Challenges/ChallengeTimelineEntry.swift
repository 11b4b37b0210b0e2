/// One thing that happened to a challenge's notifications: queued, skipped, an attempt and its answer, a webhook
/// call. Kept beside the challenge; ``ChallengeTimeline`` adds the start and the answer for every place that shows it.
package struct ChallengeTimelineEntry: Sendable, Hashable, Codable {
    /// What happened. Stable names: `push.queued`, `push.skipped`, `push.delivered`, `push.retry`,
    /// `push.stale_token`, `push.failed`, `push.expired`, `webhook.delivered`, `webhook.failed`, `push.fraud_reported`.
    package var event: String
    /// The tenant.
    package var tenantID: String
    /// The challenge.
    package var challengeID: String
    /// Milliseconds since the epoch.
    package var at: Int64
    /// The authenticator concerned, if one.
    package var authenticatorID: String?
    /// `apns`, `fcm` or `webhook`.
    package var provider: String?
    /// The attempt's number (1 for the first).
    package var attempt: Int?
    /// The provider's HTTP status, if it answered.
    package var status: Int?
    /// A short reason or error code (never a token or key).
    package var detail: String?

    /// Creates an entry.
    package init(
        event: String, tenantID: String, challengeID: String, at: Int64, authenticatorID: String? = nil,
        provider: String? = nil, attempt: Int? = nil, status: Int? = nil, detail: String? = nil
    ) {
        self.event = event
        self.tenantID = tenantID
        self.challengeID = challengeID
        self.at = at
        self.authenticatorID = authenticatorID
        self.provider = provider
        self.attempt = attempt
        self.status = status
        self.detail = detail
    }
}
