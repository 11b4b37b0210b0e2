import AssentWire

/// The push-bombing defence around push challenges (see ``PushGuard`` for the rule): refuses new starts for a
/// throttled or locked user, counts each answer of a push challenge (expiries are counted on the way, once each),
/// records "this wasn't me" reports, and lets an administrator reset a user.
///
/// A start reads the guard without a transaction (a start changes it only when expiries are left to count), so the
/// common case costs one read; every change is ``PushGuardStore/updatePushGuard(tenantID:userID:now:timeline:events:_:)``
/// under the user's lock. A start that reads just before a concurrent third denial commits may still open one
/// challenge: the per-user pending cap bounds what can slip through.
package struct PushGuards: Sendable {
    let store: any PushGuardStore
    let clock: WallClock
    /// Builds `push.fraud_reported`; nil where none is sent (the CLI's reset).
    let webhooks: WebhookEvents?

    /// Throws `429 push_locked` or `push_throttled` (with the seconds to wait) when `userID` may not get a push now.
    package func admitStart(tenant: Tenant, userID: String) async throws {
        let now = clock.nowMilliseconds()
        let read = try await store.pushGuard(tenantID: tenant.id, userID: userID, now: now)
        try await admitStart(tenant: tenant, userID: userID, read: read, now: now)
    }

    /// ``admitStart(tenant:userID:)`` with the guard and its uncounted expiries already `read` at `now` (read
    /// together with what else a start needs, see ``ChallengeStore/pushStartReads(tenantID:idempotencyKey:userID:now:)``).
    package func admitStart(
        tenant: Tenant, userID: String, read: PushGuardRead, now: Int64
    ) async throws {
        var state = read.stored
        if !read.expiredAt.isEmpty {
            let seconds = tenant.settings.pushThrottleSeconds
            state = try await store.updatePushGuard(
                tenantID: tenant.id, userID: userID, now: now, timeline: [], events: []
            ) { state, expiredAt in
                state.countExpiries(expiredAt, through: now, throttleSeconds: seconds)
            }
        }
        if let refusal = state?.refusal(at: now) { throw refusal }
    }

    /// Counts `challenge`'s answer by `authenticator`: an approval ends the count, a denial (or a wrong code) adds one;
    /// `fraud` ("this wasn't me") also locks push for the tenant's `fraudLockSeconds`, writes `push.fraud_reported`
    /// on the challenge's timeline and queues the `push.fraud_reported` webhook, all in one transaction.
    package func recordAnswer(
        tenant: Tenant, challenge: Challenge, approved: Bool, fraud: Bool, authenticator: Authenticator,
        read: PushGuardRead? = nil
    ) async throws {
        guard challenge.kind == .push, let userID = challenge.userID else { return }
        let now = clock.nowMilliseconds()
        if approved, !fraud {
            // The common case: nothing stored and nothing to count, so nothing to reset. `read` is the guard as the
            // store read it right after the answer (an expiry it missed since is counted by the next change).
            let current: PushGuardRead
            if let read { current = read } else { current = try await store.pushGuard(tenantID: tenant.id, userID: userID, now: now) }
            if current.expiredAt.isEmpty,
               current.stored.map({ $0.consecutiveFailures == 0 && $0.throttledUntil == nil }) ?? true { return }
        }
        let change = Self.answerChange(
            tenant: tenant, challenge: challenge, userID: userID, approved: approved, fraud: fraud,
            authenticator: authenticator, now: now, webhooks: webhooks)
        try await store.updatePushGuard(
            tenantID: tenant.id, userID: userID, now: now, timeline: change.timeline, events: change.events, change.apply)
    }

    /// What a device's "this wasn't me" (the denial of push `challenge`, answered at `now`) changes on its user's
    /// guard: a failure counted and push locked for the tenant's `fraudLockSeconds`, `push.fraud_reported` on the
    /// challenge's timeline and as a webhook. Nil when the challenge is not a user's push challenge. The caller
    /// applies it in the answer's transaction.
    package func fraudReport(
        tenant: Tenant, challenge: Challenge, authenticator: Authenticator, now: Int64
    ) -> PushGuardChange? {
        guard challenge.kind == .push, let userID = challenge.userID else { return nil }
        return Self.answerChange(
            tenant: tenant, challenge: challenge, userID: userID, approved: false, fraud: true,
            authenticator: authenticator, now: now, webhooks: webhooks)
    }

    /// The guard change an answer makes (see ``recordAnswer(tenant:challenge:approved:fraud:authenticator:read:)``).
    private static func answerChange(
        tenant: Tenant, challenge: Challenge, userID: String, approved: Bool, fraud: Bool,
        authenticator: Authenticator, now: Int64, webhooks: WebhookEvents?
    ) -> PushGuardChange {
        let settings = tenant.settings
        var timeline: [ChallengeTimelineEntry] = []
        var events: [WebhookEvent] = []
        let lockedUntil = now + Int64(max(settings.fraudLockSeconds, 0)) * 1000
        if fraud {
            timeline.append(ChallengeTimelineEntry(
                event: "push.fraud_reported", tenantID: tenant.id, challengeID: challenge.id, at: now,
                authenticatorID: authenticator.id, detail: "push locked until \(Timestamp.iso8601(milliseconds: lockedUntil))"))
            events = webhooks?.pushFraudReported(challenge, authenticatorID: authenticator.id, lockedUntil: lockedUntil, tenant: tenant) ?? []
        }
        return PushGuardChange(userID: userID, timeline: timeline, events: events) { state, expiredAt in
            state.countExpiries(expiredAt, through: now, throttleSeconds: settings.pushThrottleSeconds)
            if approved {
                state.recordApproval(at: now)
            } else {
                state.recordFailure(at: now, throttleSeconds: settings.pushThrottleSeconds)
            }
            if fraud { state.lock(at: now, seconds: settings.fraudLockSeconds) }
        }
    }

    /// An administrator's reset: `userID` may get pushes again at once (throttle and fraud lock end).
    @discardableResult
    package func reset(tenantID: String, userID: String) async throws -> PushGuard {
        let now = clock.nowMilliseconds()
        return try await store.updatePushGuard(tenantID: tenantID, userID: userID, now: now, timeline: [], events: []) {
            state, _ in state.reset(at: now)
        }
    }

    /// Guards kept in `store`; `webhooks` builds the `push.fraud_reported` event (nil sends none).
    package init(store: any PushGuardStore, clock: WallClock, webhooks: WebhookEvents?) {
        self.store = store
        self.clock = clock
        self.webhooks = webhooks
    }
}
