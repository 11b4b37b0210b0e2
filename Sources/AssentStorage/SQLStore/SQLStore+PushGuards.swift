import AssentServerCore

/// The push guards' statements, the same in both dialects.
enum PushGuardQueries {
    static let columns = "recent_failures, consecutive_failures, throttle_level, throttled_until, locked_until, counted_through"
    static let byUser: SQL = "SELECT \(columns) FROM push_guards WHERE tenant_id = $1 AND user_id = $2"
    static let upsert: SQL = """
        INSERT INTO push_guards (tenant_id, user_id, \(columns), updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (tenant_id, user_id) DO UPDATE SET recent_failures = excluded.recent_failures,
          consecutive_failures = excluded.consecutive_failures, throttle_level = excluded.throttle_level,
          throttled_until = excluded.throttled_until, locked_until = excluded.locked_until,
          counted_through = excluded.counted_through, updated_at = excluded.updated_at
        """
    static let insertTimelineEntry: SQL = """
        INSERT INTO challenge_timeline (tenant_id, challenge_id, at, event, authenticator_id, provider, attempt, status,
          detail)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        """

    /// The stored guard (a row with 0 first) and when the user's push challenges expired unanswered since the guard
    /// last counted them (rows with 1 first; since $3 when there is no guard) up to $4, both in one statement (one
    /// round trip in PostgreSQL). A challenge whose start failed (the tenant's push webhook refused it, so it was
    /// ended at once) is not the user's doing and does not count.
    static let guardAndExpiries: SQL = """
        SELECT 0, \(columns), NULL FROM push_guards WHERE tenant_id = $1 AND user_id = $2
        UNION ALL
        SELECT 1, NULL, NULL, NULL, NULL, NULL, NULL, c.expires_at FROM challenges c
        WHERE c.tenant_id = $1 AND c.user_id = $2 AND c.kind = 'push' AND c.state = 'pending'
          AND c.expires_at > COALESCE(
            (SELECT counted_through FROM push_guards WHERE tenant_id = $1 AND user_id = $2), $3\(postgres: "::bigint"))
          AND c.expires_at <= $4
          AND NOT EXISTS (SELECT 1 FROM challenge_timeline t WHERE t.challenge_id = c.id AND t.event = 'webhook.failed')
        """

    /// The stored guard and the expiries it has not counted, read on `db`.
    static func read(
        tenantID: String, userID: String, now: Int64, in db: some StoreConnection
    ) throws -> PushGuardRead {
        var read = PushGuardRead()
        _ = try db.query(guardAndExpiries, values(tenantID: tenantID, userID: userID, now: now)) { row in
            try fold(row, into: &read, tenantID: tenantID, userID: userID, now: now)
        }
        return read
    }

    /// ``guardAndExpiries``' parameters.
    static func values(tenantID: String, userID: String, now: Int64) -> [StoreValue] {
        let since = PushGuard(tenantID: tenantID, userID: userID, now: now).expiriesCountedThrough
        return [.text(tenantID), .text(userID), .integer(since), .integer(now)]
    }

    /// Adds one row of ``guardAndExpiries`` to `read`: the stored guard, or an expiry.
    static func fold(
        _ row: some StoreRow, into read: inout PushGuardRead, tenantID: String, userID: String, now: Int64
    ) throws {
        guard row.int64(0) == 0 else {
            read.expiredAt.append(row.int64(7))
            return
        }
        var state = PushGuard(tenantID: tenantID, userID: userID, now: now)
        state.recentFailures = try row.string(1).split(separator: ",").compactMap { Int64($0) }
        state.consecutiveFailures = Int(row.int64(2))
        state.throttleLevel = Int(row.int64(3))
        state.throttledUntil = row.optionalInt64(4)
        state.lockedUntil = row.optionalInt64(5)
        state.expiriesCountedThrough = row.int64(6)
        read.stored = state
    }
}

extension SQLStore {
    package func pushGuard(tenantID: String, userID: String, now: Int64) async throws -> PushGuardRead {
        try await read { db in try PushGuardQueries.read(tenantID: tenantID, userID: userID, now: now, in: db) }
    }

    package func updatePushGuard(
        tenantID: String, userID: String, now: Int64, timeline: [ChallengeTimelineEntry], events: [WebhookEvent],
        _ change: @escaping @Sendable (inout PushGuard, _ expiredAt: [Int64]) -> Void
    ) async throws -> PushGuard {
        let guardChange = PushGuardChange(userID: userID, timeline: timeline, events: events, apply: change)
        return try await write { db in
            try PushGuardQueries.apply(guardChange, tenantID: tenantID, now: now, in: db)
        }
    }
}

extension PushGuardQueries {
    /// Applies `change` inside the caller's transaction: takes the user's lock, reads the guard and its uncounted
    /// expiries, runs the rule, stores the guard, appends the timeline entries and queues the events.
    static func apply(
        _ change: PushGuardChange, tenantID: String, now: Int64, in db: some StoreConnection
    ) throws -> PushGuard {
        let userID = change.userID
        // The lock push starts for this user take (``ChallengeQueries/lockCap``): every change to the guard, from
        // any instance, takes turns on it, so the read below sees every change committed before it.
        try ChallengeQueries.lockCap(tenantID: tenantID, userID: userID, in: db)
        let read = try read(tenantID: tenantID, userID: userID, now: now, in: db)
        var state = read.stored ?? PushGuard(tenantID: tenantID, userID: userID, now: now)
        change.apply(&state, read.expiredAt)
        state.expiriesCountedThrough = max(state.expiriesCountedThrough, now)
        try db.update(
            upsert,
            [.text(tenantID), .text(userID), .text(state.recentFailures.map(String.init).joined(separator: ",")),
             .integer(Int64(state.consecutiveFailures)), .integer(Int64(state.throttleLevel)),
             .optional(state.throttledUntil), .optional(state.lockedUntil), .integer(state.expiriesCountedThrough),
             .integer(now)])
        for e in change.timeline {
            try db.update(
                insertTimelineEntry,
                [.text(e.tenantID), .text(e.challengeID), .integer(e.at), .text(e.event), .optional(e.authenticatorID),
                 .optional(e.provider), .optional(e.attempt), .optional(e.status), .optional(e.detail)])
        }
        try WebhookQueries.enqueue(change.events, in: db)
        return state
    }
}
