import AssentServerCore

/// The PostgreSQL schema, as numbered steps mirroring ``SQLiteMigrations`` (the text is ``Schema``'s: the same
/// tables, columns and meanings in native types — `BIGINT` for times in milliseconds, `BOOLEAN`, `BYTEA`). Step
/// numbers follow SQLite's: step 3 is SQLite's steps 1–3 in one (PostgreSQL arrived after them), and a later SQLite
/// step N gets a PostgreSQL step N. A step is never edited once released. Applied steps are rows of `assent_schema`; every step not there yet runs, in order
/// (so a lower-numbered step merged later still runs), under an advisory lock, so instances starting together take
/// turns and each step runs once.
enum PostgresMigrations {
    /// The advisory lock key held while migrating ("ASNTMIGR").
    static let lockKey: Int64 = 0x41534E544D494752

    static let steps: [(version: Int, sql: String)] = [
        (3, Schema.postgresStep3),
        (4, Schema.powerAuth.postgres),
        (5, Schema.pushDelivery.postgres),
        (6, Schema.actionLocation.postgres),
        (7, Schema.pushGuards.postgres),
        (8, Schema.challengeAnonymous.postgres),
        (9, Schema.boundSignatures.postgres),
        (10, Schema.metricWatermarks.postgres),
        (11, Schema.console.postgres),
        (12, Schema.auditEntries.postgres),
        (13, raiseFunction),
        (14, Schema.overviewStep.postgres),
        (15, Schema.userIDBytes),
        (16, Schema.sweepIndexes.postgres),
        (17, Schema.consoleSessionOrigins.postgres),
        (18, Schema.attestationChallenges.postgres),
        (19, Schema.authenticatorAttestation.postgres),
        (20, Schema.activationAttestation.postgres),
        (21, Schema.tenantSecretKeyRingVersion.postgres),
        (22, Schema.signInHistory.postgres),
    ]

    /// Step 13, PostgreSQL only: `assent_raise(sqlstate, message)` fails the statement that calls it with that
    /// SQLSTATE, so a single statement can refuse its own outcome (and roll back with everything pipelined after it)
    /// instead of the client checking a result and sending a `ROLLBACK` in another round trip. Typed `bigint` so it
    /// can stand in a `CASE` beside counts.
    static let raiseFunction = """
        CREATE OR REPLACE FUNCTION assent_raise(code text, message text) RETURNS bigint LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
        END
        $$
        """

    /// Applies every step the database has not had, each in its own transaction, holding the advisory lock
    /// throughout. Refuses a database with a step this build does not know (it comes from a newer `assentd`).
    /// Returns the versions applied.
    @discardableResult
    static func apply(to connection: PostgresConnection) throws -> [Int] {
        try connection.execute("SELECT pg_advisory_lock(\(lockKey))")
        defer { try? connection.execute("SELECT pg_advisory_unlock(\(lockKey))") }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS assent_schema (
                version BIGINT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """)
        let done = Set(try connection.query("SELECT version FROM assent_schema") { Int($0.int64(0)) })
        if let unknown = done.subtracting(steps.map(\.version)).max() {
            throw StoreError(.migrationFailed, "the database has schema step \(unknown), which this assentd does not know (it is newer)")
        }
        var applied: [Int] = []
        for step in steps.sorted(by: { $0.version < $1.version }) where !done.contains(step.version) {
            do {
                try connection.execute("BEGIN")
                try connection.execute(step.sql)
                try connection.execute("INSERT INTO assent_schema (version) VALUES (\(step.version))")
                try connection.execute("COMMIT")
                applied.append(step.version)
            } catch {
                try? connection.execute("ROLLBACK")
                throw StoreError(.migrationFailed, "migration \(step.version): \(error)")
            }
        }
        return applied
    }
}
