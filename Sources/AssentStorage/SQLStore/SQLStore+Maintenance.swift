import AssentServerCore

/// What the sweeps delete: the rows no one can use any more, in bounded batches, each its own short write, so a
/// sweep never holds the database's writer (SQLite's single writer, PostgreSQL's row locks) for longer than one
/// batch however much expired at once — a day of challenges at full rate is tens of millions of rows.
enum SweepBatch {
    /// Rows a batch deletes at most.
    static let size = 500

    /// `DELETE` of at most ``size`` rows of `table` (by its primary key `key`) that match `condition`: one statement
    /// both dialects run. The inner `SELECT` finds the rows through the index on `condition`'s column.
    static func delete(_ table: String, key: String = "id", where condition: String) -> SQL {
        SQL(stringLiteral: "DELETE FROM \(table) WHERE \(key) IN (SELECT \(key) FROM \(table) WHERE \(condition) LIMIT \(size))")
    }
}

extension SQLStore {
    package func sweep(now: Int64, challengesBefore: Int64, eventsBefore: Int64) async throws -> Int {
        // Plain deletes of rows no one can use any more: running on every instance at once is harmless.
        //
        // Still `pending` with no user: anonymous and never claimed (a claim sets both state and user), so gone once
        // it can no longer be claimed (`expires_at <= now`, as ``Challenge/isOpen(at:)`` has it) and the metrics
        // counted it as expired (up to the watermark, when there is one). The partial index `challenges_unclaimed_qr`
        // (schema step 16) holds only these, so finding them reads no other challenge.
        let counted = try await read { db in
            try db.queryOne(MetricsQueries.watermark, [.text(MetricsQueries.expiredWatermark)]) { $0.int64(0) }
        } ?? now
        var removed = try await sweepInBatches(
            SweepBatch.delete(
                "challenges", where: "kind = 'qr' AND state = 'pending' AND user_id IS NULL AND expires_at <= $1"),
            [.integer(min(now, counted))])
        removed += try await sweepInBatches(
            SweepBatch.delete("challenges", where: "expires_at < $1"), [.integer(challengesBefore)])
        removed += try await sweepInBatches(SweepBatch.delete("nonces", where: "expires_at < $1"), [.integer(now)])
        removed += try await sweepInBatches(
            SweepBatch.delete("spent_signatures", key: "digest", where: "expires_at < $1"), [.integer(now)])
        removed += try await sweepInBatches(
            SweepBatch.delete("attestation_challenges", key: "challenge", where: "expires_at < $1"), [.integer(now)])
        removed += try await sweepInBatches(
            SweepBatch.delete("console_sessions", key: "id_hash", where: "idle_expires_at <= $1 OR expires_at <= $1"),
            [.integer(now)])
        removed += try await sweepInBatches(
            SweepBatch.delete("webhook_outbox", where: "COALESCE(delivered_at, failed_at) < $1"), [.integer(eventsBefore)])
        // The overview's per-minute counts and batch records, two days on (their time indexes find them).
        let overviewBefore = now - Self.retentionMilliseconds
        removed += try await sweepInBatches(OverviewQueries.sweepMinutes, [.integer(overviewBefore)])
        removed += try await sweepInBatches(OverviewQueries.sweepFlushes, [.integer(overviewBefore)])
        return removed
    }

    package func sweepPushDeliveries(before: Int64) async throws -> Int {
        // Plain deletes of rows no one uses any more: running on every instance at once is harmless. Each condition
        // has its index (schema step 16 for the deliveries').
        try await sweepInBatches(
            SweepBatch.delete("push_deliveries", where: "state <> 'queued' AND finished_at < $1"), [.integer(before)])
            + sweepInBatches(SweepBatch.delete("push_deliveries", where: "expires_at < $1"), [.integer(before)])
            + sweepInBatches(SweepBatch.delete("challenge_timeline", where: "at < $1"), [.integer(before)])
    }

    /// Runs `statement` (a ``SweepBatch/delete(_:key:where:)``) as one write after another until a batch deletes
    /// fewer than a full batch, letting other work run between batches; the rows deleted in all.
    func sweepInBatches(_ statement: SQL, _ parameters: [StoreValue], operation: String = #function) async throws -> Int {
        var removed = 0
        while true {
            let batch = try await writeOne({ db in try db.update(statement, parameters) }, operation: operation)
            removed += batch
            if batch < SweepBatch.size { return removed }
            await Task.yield()
        }
    }
}
