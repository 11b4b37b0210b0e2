/// The push delivery queue and challenge timeline.
///
/// The queue is **lease-based**: ``claimDuePushDeliveries(now:leaseUntil:limit:)`` hands each due delivery to one
/// caller and stamps `claimedUntil`; until then no other caller gets it, and after it (a worker that died mid-send) it
/// is due again. Several `assentd` instances can therefore share one queue — in PostgreSQL the claim is one
/// `UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING ...`. Delivery is at least once.
/// Every method is one atomic, durable unit (see ``ServerStore``).
package protocol PushDeliveryStore: Sendable {
    /// Stores a push challenge (refusing it, like ``ChallengeStore/insertChallenge(_:maxOpenForUser:)``, when its
    /// user already has `maxOpenForUser` open ones) together with its queued deliveries and first timeline entries,
    /// in one transaction; false when refused.
    func insertPushChallenge(
        _ challenge: Challenge, maxOpenForUser: Int?, deliveries: [PushDelivery], timeline: [ChallengeTimelineEntry]
    ) async throws -> Bool

    /// Appends timeline entries.
    func appendTimeline(_ entries: [ChallengeTimelineEntry]) async throws

    /// Ends an open challenge at once (its start failed) and appends `entry`; its queued deliveries expire.
    func abandonChallenge(tenantID: String, id: String, at: Int64, entry: ChallengeTimelineEntry) async throws

    /// Claims up to `limit` queued deliveries due at `now` whose lease is free, setting their lease to `leaseUntil`,
    /// each with its authenticator's current push token and platform. Deliveries whose challenge has ended, or
    /// whose authenticator or push token is gone, are not returned: they become `expired` (with a timeline entry).
    func claimDuePushDeliveries(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [PushDelivery]

    /// Records an attempt's result and releases the lease, in one transaction: the delivery's new state, attempts,
    /// next attempt (for `queued`) and error; the timeline entry; and for `staleToken` the authenticator's
    /// `erroredAt`/`errorCode` — only while its push token is still `sentToken` (a device that already sent a new
    /// token is not marked).
    func recordPushAttempt(
        _ delivery: PushDelivery, sentToken: String?, staleCode: String?, entry: ChallengeTimelineEntry
    ) async throws

    /// The deliveries of a challenge, oldest first.
    func pushDeliveries(tenantID: String, challengeID: String) async throws -> [PushDelivery]

    /// A challenge's timeline, oldest first.
    func challengeTimeline(tenantID: String, challengeID: String) async throws -> [ChallengeTimelineEntry]

    /// Deletes finished deliveries and timeline entries older than `before`; returns how many rows went.
    func sweepPushDeliveries(before: Int64) async throws -> Int
}
