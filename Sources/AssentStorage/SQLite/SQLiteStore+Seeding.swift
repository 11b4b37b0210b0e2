package import AssentServerCore

/// Seeding on SQLite: the shared statements (``SeedQueries``), with a page cache big enough for the indexes being
/// filled. Seeded ids are random-looking, so every insert lands on a random page of each primary-key index; with
/// SQLite's default 2 MB cache a million users read and write those pages again and again (320,000 users took
/// 4.5 minutes, against 24 s for 100,000). The cache belongs to the writer connection of the process that seeds
/// (`assent admin seed`), never to `assentd`'s.
extension SQLiteStore {
    /// 512 MiB (a negative `cache_size` is in KiB); SQLite takes pages as it needs them.
    static let seedingCacheKiB = 512 * 1024

    package func insertSeedBatch(_ batch: SeedBatch) async throws -> SeedCounts {
        let rows = SeedQueries.Rows(batch)
        return try await write { db in
            try db.execute("PRAGMA cache_size = -\(Self.seedingCacheKiB)")
            return try SeedQueries.insert(rows, in: db)
        }
    }

    package func insertSeedSignIns(_ signIns: [SignIn]) async throws -> Int {
        let rows = signIns.map(SignInQueries.values)
        return try await write { db in
            try db.execute("PRAGMA cache_size = -\(Self.seedingCacheKiB)")
            return try SeedQueries.insert(rows, into: "sign_in_history", columns: SignInQueries.columns, in: db)
        }
    }

    /// Nothing to settle: no background vacuum or checkpoint of its own runs later (and ``SQLiteWriter`` checkpoints
    /// as it commits); statistics are left as they are, so SQLite's plans stay the ones every other test sees.
    package func settleSeededTables() async throws {}
}
