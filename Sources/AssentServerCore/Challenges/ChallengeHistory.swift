/// What is known about one challenge of a tenant, for the console's challenge page and
/// `GET /v1/challenges/{challengeId}/timeline`: the challenge (while kept), what the store recorded on its timeline
/// and its push deliveries. Each caller orders the timeline with ``ChallengeTimeline/entries(challenge:recorded:now:)``.
package struct ChallengeHistory: Sendable {
    /// One challenge's history.
    package struct Read: Sendable {
        /// The challenge; nil when the tenant has none with that id (never had one, or it was swept).
        package var challenge: Challenge?
        /// The entries the store recorded for it, in their order.
        package var recorded: [ChallengeTimelineEntry]
        /// Its push deliveries.
        package var deliveries: [PushDelivery]

        /// Whether nothing at all is known (no challenge, no entries, no deliveries).
        package var isEmpty: Bool { challenge == nil && recorded.isEmpty && deliveries.isEmpty }
    }

    private let challenges: any ChallengeStore
    private let deliveries: any PushDeliveryStore

    /// Histories read from `challenges` and `deliveries`.
    package init(challenges: any ChallengeStore, deliveries: any PushDeliveryStore) {
        self.challenges = challenges
        self.deliveries = deliveries
    }

    /// The tenant's challenge `challengeID` with its recorded timeline and deliveries.
    package func read(tenantID: String, challengeID: String) async throws -> Read {
        Read(
            challenge: try await challenges.challenge(tenantID: tenantID, id: challengeID),
            recorded: try await deliveries.challengeTimeline(tenantID: tenantID, challengeID: challengeID),
            deliveries: try await deliveries.pushDeliveries(tenantID: tenantID, challengeID: challengeID))
    }
}
