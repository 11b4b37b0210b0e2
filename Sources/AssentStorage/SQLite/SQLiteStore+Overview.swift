import AssentServerCore

extension SQLiteStore {
    static let foldThrough: SQL = """
        SELECT MAX(id) FROM (SELECT id FROM overview_total_changes ORDER BY id LIMIT $1)
        """
    static let foldAdd: SQL = """
        INSERT INTO overview_totals (tenant_id, name, value)
        SELECT tenant_id, name, SUM(delta) FROM overview_total_changes WHERE id <= $1 GROUP BY tenant_id, name
        ON CONFLICT (tenant_id, name) DO UPDATE SET value = overview_totals.value + excluded.value
        """
    static let foldDelete: SQL = "DELETE FROM overview_total_changes WHERE id <= $1"

    /// Adds the oldest change rows up to a point into the totals and deletes them, as statements of the writer's
    /// transaction. SQLite's own triggers write no change rows (they add to the totals at once), so this finds work
    /// only in a database whose change rows some other writer left. (PostgreSQL deletes and adds in one statement, which also keeps it exact while transactions
    /// commit change rows out of id order; SQLite's single writer has no such overlap and no `DELETE` inside `WITH`.)
    package func foldOverviewTotals(limit: Int) async throws -> Int {
        try await write { db in
            guard let through = try db.queryOne(Self.foldThrough, [.integer(Int64(limit))], { $0.optionalInt64(0) }) ?? nil
            else { return 0 }
            try db.update(Self.foldAdd, [.integer(through)])
            return try db.update(Self.foldDelete, [.integer(through)])
        }
    }
}
