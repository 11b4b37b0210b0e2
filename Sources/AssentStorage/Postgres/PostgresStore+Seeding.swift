package import AssentServerCore

/// Settling a bulk load on PostgreSQL (``SeedStore/settleSeededTables()``). Without it a benchmark that starts right
/// after `assent admin seed` shares the machine with the load's aftermath: autovacuum and autoanalyze of the four
/// filled tables (seconds at 100,000 users) and the checkpoint the load's WAL started, still spreading its writes —
/// and while a checkpoint is young, the first change to every page logs the whole page.
extension PostgresStore {
    /// The tables ``SeedQueries`` fills.
    static let seededTables = "users, authenticators, actions, challenges, activations, sign_in_history"

    package func insertSeedSignIns(_ signIns: [SignIn]) async throws -> Int {
        let rows = signIns.map(SignInQueries.values)
        return try await write { db in
            try SeedQueries.insert(rows, into: "sign_in_history", columns: SignInQueries.columns, in: db)
        }
    }

    package func settleSeededTables() async throws {
        try await pool.withConnection { db in
            // VACUUM runs outside a transaction block: one simple-protocol statement on its own.
            try db.execute("VACUUM (ANALYZE) \(Self.seededTables)")
            // CHECKPOINT needs superuser or pg_checkpoint; without them the autovacuum work is still settled.
            try? db.execute("CHECKPOINT")
        }
    }
}
