import AssentServerCore

/// The SQLite schema, as numbered steps (the text is ``Schema``'s, shared with PostgreSQL). A step is never edited
/// once released; changes are new steps.
enum SQLiteMigrations {
    static let steps: [(version: Int, sql: String)] = [
        (1, Schema.sqliteStep1),
        (2, Schema.sqliteStep2),
        (3, Schema.sqliteStep3),
        (4, Schema.powerAuth.sqlite),
        (5, Schema.pushDelivery.sqlite),
        (6, Schema.actionLocation.sqlite),
        (7, Schema.pushGuards.sqlite),
        (8, Schema.challengeAnonymous.sqlite),
        (9, Schema.boundSignatures.sqlite),
        (10, Schema.metricWatermarks.sqlite),
        (11, Schema.console.sqlite),
        (12, Schema.auditEntries.sqlite),
        (14, Schema.overviewStep.sqlite),
        (16, Schema.sweepIndexes.sqlite),
        (17, Schema.consoleSessionOrigins.sqlite),
        (18, Schema.attestationChallenges.sqlite),
        (19, Schema.authenticatorAttestation.sqlite),
        (20, Schema.activationAttestation.sqlite),
        (21, Schema.tenantSecretKeyRingVersion.sqlite),
        (22, Schema.signInHistory.sqlite),
    ]

    /// Applies every step the database has not had yet, in order, each in its own transaction, and records it in
    /// `schema_steps` (the `user_version` pragma keeps the highest applied number). Numbers need not be contiguous
    /// and a step numbered below one already applied still runs: branches reserve numbers (4 is the PowerAuth
    /// activations', 5 push delivery's), and a database made before a lower-numbered step was merged gets it later.
    /// A database that has a step this build does not know is refused (it comes from a newer `assentd`).
    static func apply(to connection: SQLiteConnection, steps: [(version: Int, sql: String)] = steps) throws {
        let current = try connection.queryOne("PRAGMA user_version") { $0.int64(0) } ?? 0
        try connection.execute("CREATE TABLE IF NOT EXISTS schema_steps (version INTEGER PRIMARY KEY)")
        var applied = Set(try connection.query("SELECT version FROM schema_steps") { Int($0.int64(0)) })
        if applied.isEmpty, current > 0 {
            // Databases from before `schema_steps` had every step up to their user_version.
            applied = Set(steps.map(\.version).filter { $0 <= current })
            for version in applied.sorted() {
                try connection.execute("INSERT INTO schema_steps (version) VALUES (\(version))")
            }
        }
        let known = Set(steps.map(\.version))
        if let unknown = applied.subtracting(known).max() ?? (current > (known.max() ?? 0) ? Int(current) : nil) {
            throw StoreError(
                .migrationFailed, "the database has schema step \(unknown), which this assentd does not know (it is newer)")
        }
        for step in steps.sorted(by: { $0.version < $1.version }) where !applied.contains(step.version) {
            do {
                try connection.execute("BEGIN IMMEDIATE")
                // Another process (assentd and the CLI opening one new file at once) may have applied it while this
                // one waited for the write lock: read again under the lock.
                let done: SQL = "SELECT version FROM schema_steps WHERE version = $1"
                if try connection.queryOne(done, [.integer(Int64(step.version))], { $0.int64(0) }) != nil {
                    try connection.execute("COMMIT")
                    applied.insert(step.version)
                    continue
                }
                try connection.execute(step.sql)
                try connection.execute("INSERT INTO schema_steps (version) VALUES (\(step.version))")
                let highest = max(Int(current), (applied.max() ?? 0), step.version)
                try connection.execute("PRAGMA user_version = \(highest)")
                try connection.execute("COMMIT")
                applied.insert(step.version)
            } catch {
                try? connection.execute("ROLLBACK")
                throw StoreError(.migrationFailed, "migration \(step.version): \(error)")
            }
        }
    }
}
