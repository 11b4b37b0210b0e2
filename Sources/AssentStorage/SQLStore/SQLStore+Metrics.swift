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
    /// expires_at`), by kind; the `challenges_expiry` index finds them.
    static let expiredBetween: SQL = """
        SELECT kind, COUNT(*) FROM challenges
        WHERE expires_at > $1 AND expires_at <= $2 AND state IN ('pending', 'claimed')
        GROUP BY kind
        """
}

extension SQLStore {
    package func webhookOutboxBacklog() async throws -> (depth: Int, oldestCreatedAt: Int64?) {
        try await read { db in
            try db.queryOne(MetricsQueries.outboxBacklog, []) { (Int($0.int64(0)), $0.optionalInt64(1)) } ?? (0, nil)
        }
    }

    package func countExpiredChallenges(through now: Int64) async throws -> [Challenge.Kind: Int] {
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
            let rows = try db.query(MetricsQueries.expiredBetween, [.integer(since), .integer(now)]) {
                (try $0.string(0), Int($0.int64(1)))
            }
            try db.update(MetricsQueries.setWatermark, [name, .integer(now)])
            var counts: [Challenge.Kind: Int] = [:]
            for (kind, count) in rows {
                if let kind = Challenge.Kind(rawValue: kind) { counts[kind, default: 0] += count }
            }
            return counts
        }
    }
}
