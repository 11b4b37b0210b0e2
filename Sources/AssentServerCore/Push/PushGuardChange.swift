/// A change to one user's push guard with what goes with it — timeline entries and webhook events — as
/// ``PushGuardStore/updatePushGuard(tenantID:userID:now:timeline:events:_:)`` applies it, or as a device's fraud
/// report applies it inside the answer's own transaction
/// (``ChallengeStore/answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:changing:audit:)``).
package struct PushGuardChange: Sendable {
    /// The user whose guard changes.
    package var userID: String
    /// Entries for the challenge's timeline.
    package var timeline: [ChallengeTimelineEntry]
    /// Webhook events to queue.
    package var events: [WebhookEvent]
    /// The rule: runs on the stored guard (a fresh one when none) with the expiries it has not counted. Does no I/O;
    /// a backend that retries the transaction may run it again.
    package var apply: @Sendable (inout PushGuard, _ expiredAt: [Int64]) -> Void

    /// A change of `userID`'s guard by `apply`, with `timeline` entries and `events`.
    package init(
        userID: String, timeline: [ChallengeTimelineEntry] = [], events: [WebhookEvent] = [],
        apply: @escaping @Sendable (inout PushGuard, _ expiredAt: [Int64]) -> Void
    ) {
        self.userID = userID
        self.timeline = timeline
        self.events = events
        self.apply = apply
    }
}
