import AssentServerCore

extension PostgresStore {
    /// Deletes the oldest change rows and adds exactly the deleted ones into the totals, in one statement. Change rows
    /// commit out of id order (identity values are handed out before commit), so folding "every id up to N" could
    /// delete a row it had not seen; `DELETE … RETURNING` adds what it deleted and nothing else, and two folds at once
    /// (two instances) cannot both take a row — the second finds it gone. Totals rows are updated in key order, so
    /// they never deadlock.
    static let fold: SQL = """
        WITH taken AS (
          DELETE FROM overview_total_changes
          WHERE id IN (SELECT id FROM overview_total_changes ORDER BY id LIMIT $1)
          RETURNING tenant_id, name, delta),
        added AS (
          INSERT INTO overview_totals (tenant_id, name, value)
          SELECT tenant_id, name, SUM(delta) FROM taken GROUP BY tenant_id, name ORDER BY tenant_id, name
          ON CONFLICT (tenant_id, name) DO UPDATE SET value = overview_totals.value + excluded.value
          RETURNING 1)
        SELECT COUNT(*) FROM taken
        """

    package func foldOverviewTotals(limit: Int) async throws -> Int {
        try await writeOne { db in
            Int(try db.queryOne(Self.fold, [.integer(Int64(limit))]) { $0.int64(0) } ?? 0)
        }
    }
}
