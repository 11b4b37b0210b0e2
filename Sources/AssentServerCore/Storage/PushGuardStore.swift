/// Each user's push-bombing state (``PushGuard``), shared by every instance on the database. Every method is one
/// atomic, durable unit (see ``ServerStore``).
package protocol PushGuardStore: Sendable {
    /// The user's stored guard (nil when none) and the times at which the user's push challenges expired unanswered
    /// after it last counted them (or in the ``PushGuard/window`` before `now` when there is no guard), up to `now`.
    /// Changes nothing.
    func pushGuard(tenantID: String, userID: String, now: Int64) async throws -> PushGuardRead

    /// In one transaction holding the user's lock (the one concurrent push starts for the user take turns on): reads
    /// what ``pushGuard(tenantID:userID:now:)`` reads, runs `change` on the guard (a fresh one when none) with those
    /// expiries, stores it, appends `timeline` and queues `events`. Returns the stored guard.
    @discardableResult
    func updatePushGuard(
        tenantID: String, userID: String, now: Int64, timeline: [ChallengeTimelineEntry], events: [WebhookEvent],
        _ change: @escaping @Sendable (inout PushGuard, _ expiredAt: [Int64]) -> Void
    ) async throws -> PushGuard
}
