import AssentServerCore

/// The overview counters' statements, the same in both dialects (the fold differs: ``SQLiteStore`` and
/// ``PostgresStore`` each write their own).
enum OverviewQueries {
    static let recordBatch: SQL = """
        INSERT INTO overview_flushes (instance, sequence, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING
        """
    /// Adds `$4`…`$7` (started, approved, denied, expired) to the row of tenant `$1`, minute `$2`, kind `$3`.
    static let addMinute: SQL = """
        INSERT INTO overview_minutes (tenant_id, minute, kind, started, approved, denied, expired)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (tenant_id, minute, kind) DO UPDATE SET started = overview_minutes.started + excluded.started,
          approved = overview_minutes.approved + excluded.approved, denied = overview_minutes.denied + excluded.denied,
          expired = overview_minutes.expired + excluded.expired
        """
    /// The tenant's minutes from `$2`, then one row (minute -1) with the highest batch number of instance `$3` the
    /// store has: one statement, so both are read at one moment.
    static let minutes: SQL = """
        SELECT minute, kind, started, approved, denied, expired FROM overview_minutes WHERE tenant_id = $1 AND minute >= $2
        UNION ALL
        SELECT -1, '', COALESCE(MAX(sequence), 0), 0, 0, 0 FROM overview_flushes WHERE instance = $3
        """
    /// The tenant's folded totals plus its changes not folded yet, in one statement.
    static let totals: SQL = """
        SELECT name, CAST(SUM(value) AS BIGINT) FROM (
          SELECT name, value FROM overview_totals WHERE tenant_id = $1
          UNION ALL
          SELECT name, delta FROM overview_total_changes WHERE tenant_id = $1
        ) AS counted GROUP BY name
        """
    /// At most ``SweepBatch/size`` rows older than `$1` (a ``SweepBatch`` over a composite key).
    static let sweepMinutes: SQL = """
        DELETE FROM overview_minutes WHERE (tenant_id, minute, kind) IN (
          SELECT tenant_id, minute, kind FROM overview_minutes WHERE minute < $1 LIMIT \(SweepBatch.size))
        """
    static let sweepFlushes: SQL = """
        DELETE FROM overview_flushes WHERE (instance, sequence) IN (
          SELECT instance, sequence FROM overview_flushes WHERE at < $1 LIMIT \(SweepBatch.size))
        """

    /// Adds `rows` to the per-minute counts, in key order.
    static func add(_ rows: [ChallengeMinute], in db: some StoreConnection) throws {
        for row in rows.sorted(by: { $0.key < $1.key }) where !row.counts.isZero {
            try db.update(addMinute, [
                .text(row.tenantID), .integer(row.minute), .text(row.kind.rawValue), .integer(Int64(row.counts.started)),
                .integer(Int64(row.counts.approved)), .integer(Int64(row.counts.denied)), .integer(Int64(row.counts.expired)),
            ])
        }
    }
}

extension SQLStore {
    package func addChallengeMinutes(_ batch: ChallengeMinuteBatch) async throws -> Bool {
        try await write { db in
            guard try db.update(
                OverviewQueries.recordBatch, [.text(batch.instance), .integer(batch.sequence), .integer(batch.createdAt)]) == 1
            else { return false }
            try OverviewQueries.add(batch.rows, in: db)
            return true
        }
    }

    package func overviewTotals(tenantID: String) async throws -> [String: Int] {
        try await read { db in
            var totals: [String: Int] = [:]
            for (name, value) in try db.query(OverviewQueries.totals, [.text(tenantID)], { (try $0.string(0), Int($0.int64(1))) }) {
                totals[name] = value
            }
            return totals
        }
    }

    package func challengeMinutes(
        tenantID: String, from: Int64, instance: String
    ) async throws -> StoredChallengeMinutes {
        try await read { db in
            var rows: [ChallengeMinute] = []
            var storedThrough: Int64 = 0
            let read = try db.query(OverviewQueries.minutes, [.text(tenantID), .integer(from), .text(instance)]) { row in
                (row.int64(0), try row.string(1),
                 ChallengeCounts(
                    started: Int(row.int64(2)), approved: Int(row.int64(3)), denied: Int(row.int64(4)),
                    expired: Int(row.int64(5))))
            }
            for (minute, kind, counts) in read {
                if minute == -1 {
                    storedThrough = Int64(counts.started)
                } else if let kind = Challenge.Kind(rawValue: kind) {
                    rows.append(ChallengeMinute(tenantID: tenantID, minute: minute, kind: kind, counts: counts))
                }
            }
            return StoredChallengeMinutes(rows: rows, storedThrough: storedThrough)
        }
    }
}
