import AssentServerCore

extension SQLStore {
    package func sweep(now: Int64, challengesBefore: Int64, eventsBefore: Int64) async throws -> Int {
        // Plain deletes of rows no one can use any more: running on every instance at once is harmless.
        try await write { db in
            // Still `pending` with no user: anonymous and never claimed (a claim sets both state and user), so gone
            // once it can no longer be claimed (`expires_at <= now`, as ``Challenge/isOpen(at:)`` has it) and the
            // metrics counted it as expired (up to the watermark, when there is one).
            let counted = try db.queryOne(
                MetricsQueries.watermark, [.text(MetricsQueries.expiredWatermark)]) { $0.int64(0) } ?? now
            return try db.update(
                "DELETE FROM challenges WHERE kind = 'qr' AND state = 'pending' AND user_id IS NULL AND expires_at <= $1",
                [.integer(min(now, counted))])
                + db.update("DELETE FROM challenges WHERE expires_at < $1", [.integer(challengesBefore)])
                + db.update("DELETE FROM nonces WHERE expires_at < $1", [.integer(now)])
                + db.update("DELETE FROM spent_signatures WHERE expires_at < $1", [.integer(now)])
                + db.update(
                    "DELETE FROM console_sessions WHERE idle_expires_at <= $1 OR expires_at <= $1", [.integer(now)])
                + db.update(
                    "DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < $1", [.integer(eventsBefore)])
                + OverviewQueries.sweep(before: now - Self.retentionMilliseconds, in: db)
        }
    }
}
