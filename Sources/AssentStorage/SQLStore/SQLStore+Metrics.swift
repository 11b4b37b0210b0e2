import AssentServerCore

/// The metrics sampler's statements, the same in both dialects.
enum MetricsQueries {
    /// The watermark of expired challenges counted.
    static let expiredWatermark = "challenges_expired"
    static let outboxBacklog: SQL = """
        SELECT COUNT(*), MIN(created_at) FROM webhook_outbox WHERE delivered_at IS NULL AND failed_at IS NULL
        """
    static let watermark: SQL = "SELECT through FROM metric_watermarks WHERE name = $1"
    static let setWatermark: SQL = """
        INSERT INTO metric_watermarks (name, through) VALUES ($1, $2)
        ON CONFLICT (name) DO UPDATE SET through = excluded.through
        """
    /// Unanswered challenges whose expiry falls in ($1, $2] (``Challenge/isOpen(at:)``: open while `now <
    /// expires_at`), by tenant, kind and the minute they expired in; the `challenges_expiry` index finds them.
    static let expiredBetween: SQL = """
        SELECT tenant_id, kind, expires_at - (expires_at % 60000), COUNT(*) FROM challenges
        WHERE expires_at > $1 AND expires_at <= $2 AND state IN ('pending', 'claimed')
        GROUP BY 1, 2, 3
        """
}

extension SQLStore {
    package func webhookOutboxBacklog() async throws -> WebhookOutboxBacklog {
        try await read { db in
            try db.queryOne(MetricsQueries.outboxBacklog, []) {
                WebhookOutboxBacklog(depth: Int($0.int64(0)), oldestCreatedAt: $0.optionalInt64(1))
            } ?? WebhookOutboxBacklog(depth: 0, oldestCreatedAt: nil)
        }
    }

    package func countExpiredChallenges(
        through now: Int64, signInEvents: (@Sendable (SignIn) -> [WebhookEvent])?
    ) async throws -> [Challenge.Kind: Int] {
        try await write { db in
            // Instances take turns (PostgreSQL's advisory lock; SQLite's single writer), so each interval is
            // counted by one of them.
            try db.lock("assent metric watermarks")
            let name = StoreValue.text(MetricsQueries.expiredWatermark)
            guard let since = try db.queryOne(MetricsQueries.watermark, [name], { $0.int64(0) }) else {
                try db.update(MetricsQueries.setWatermark, [name, .integer(now)])
                return [:]
            }
            guard now > since else { return [:] }
            let rows = try db.query(MetricsQueries.expiredBetween, [.integer(since), .integer(now)]) { row in
                (try row.string(0), try row.string(1), row.int64(2), Int(row.int64(3)))
            }
            // Each expiry with a user becomes an `expired` row of the authentication history, once, with the count.
            let expired = try db.query(SignInQueries.insertExpired, [.integer(since), .integer(now)], SignInQueries.signIn)
            if let signInEvents { try WebhookQueries.enqueue(expired.flatMap(signInEvents), in: db) }
            try db.update(MetricsQueries.setWatermark, [name, .integer(now)])
            var counts: [Challenge.Kind: Int] = [:]
            var minutes: [ChallengeMinute] = []
            for (tenantID, kind, minute, count) in rows {
                guard let kind = Challenge.Kind(rawValue: kind) else { continue }
                counts[kind, default: 0] += count
                minutes.append(ChallengeMinute(
                    tenantID: tenantID, minute: minute, kind: kind,
                    counts: ChallengeCounts(started: 0, approved: 0, denied: 0, expired: count)))
            }
            // The overview's per-minute counts get them in this transaction: once, with the watermark.
            try OverviewQueries.add(minutes, in: db)
            return counts
        }
    }
}
