/// A challenge's one timeline, wherever it is shown — the console's challenge page, `GET /v1/challenges/{id}/timeline`
/// and `assent admin challenge timeline` — so they cannot contradict each other (issue 22 §3.3: the API answered
/// `404` under the provider `none`, where nothing is delivered, while the console showed the start and the answer).
///
/// The store records only what happens to notifications (queued, skipped, attempts, webhook calls, fraud reports); the
/// start, the answer and the expiry are facts of the challenge row itself, so they are derived here rather than written
/// twice: `challenge.started` (its target authenticator, `from IP`), then the recorded entries in their order, then
/// `challenge.claimed|approved|denied|answered` (by whom) or, once past its expiry unanswered, `challenge.expired`.
package enum ChallengeTimeline {
    /// The entries in time order; at equal times the start comes first and the answer last. `challenge` is nil when the
    /// row is gone (swept) but recorded entries remain: those alone are the timeline then.
    package static func entries(
        challenge: Challenge?, recorded: [ChallengeTimelineEntry], now: Int64
    ) -> [ChallengeTimelineEntry] {
        guard let c = challenge else { return recorded }
        var events = [
            ChallengeTimelineEntry(
                event: "challenge.started", tenantID: c.tenantID, challengeID: c.id, at: c.createdAt,
                authenticatorID: c.targetAuthenticatorID, detail: c.ipAddress.map { "from \($0)" }),
        ]
        events += recorded
        if let answered = c.answeredAt {
            let event = switch c.state {
            case .claimed: "challenge.claimed"
            case .approved: "challenge.approved"
            case .denied: "challenge.denied"
            case .pending: "challenge.answered"
            }
            events.append(ChallengeTimelineEntry(
                event: event, tenantID: c.tenantID, challengeID: c.id, at: answered, authenticatorID: c.answeredBy))
        } else if now >= c.expiresAt {
            events.append(ChallengeTimelineEntry(
                event: "challenge.expired", tenantID: c.tenantID, challengeID: c.id, at: c.expiresAt))
        }
        // Stable: the start first, then what the store recorded in its order, the answer last at equal times.
        return events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }
}
