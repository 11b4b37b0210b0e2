import AssentServerCore
import AssentSync

/// The bulk loader's statements: multi-row `INSERT … VALUES (…), (…), … ON CONFLICT DO NOTHING`, the same in both
/// dialects. Many rows per statement is what makes seeding fast on PostgreSQL (a round trip per statement, not per
/// row) and cheaper on SQLite (one statement step per chunk); both cap bound parameters (SQLite at 32,766,
/// PostgreSQL at 65,535), so a statement carries at most ``rowsPerStatement`` rows of at most 22 columns.
enum SeedQueries {
    static let rowsPerStatement = 200
    static let hasUsers: SQL = "SELECT 1 FROM users WHERE tenant_id = $1 LIMIT 1"

    /// Statements by table and row count: a batch's full chunks all use one text, which each connection prepares once.
    private static let statements = AssentLock<[String: SQL]>([:])

    /// `INSERT INTO table (columns) VALUES` with `rows` tuples of placeholders, skipping rows whose key exists.
    static func insert(into table: String, columns: String, rows: Int) -> SQL {
        let key = "\(table)/\(rows)"
        if let cached = statements.withLock({ $0[key] }) { return cached }
        let width = columns.split(separator: ",").count
        let tuples = (0..<rows).map { row in
            "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")"
        }
        let sql = SQL("INSERT INTO \(table) (\(columns)) VALUES\n" + tuples.joined(separator: ",\n") + "\nON CONFLICT DO NOTHING")
        statements.withLock { $0[key] = sql }
        return sql
    }

    /// A batch's rows as values, table by table (made before the transaction starts).
    struct Rows: Sendable {
        let users, authenticators, actions, challenges, activations: [[StoreValue]]

        init(_ batch: SeedBatch) {
            users = batch.users.map(StoreRecords.userValues)
            authenticators = batch.authenticators.map(StoreRecords.authenticatorValues)
            actions = batch.actions.map(StoreRecords.actionValues)
            challenges = batch.challenges.map(StoreRecords.challengeValues)
            activations = batch.activations.map(StoreRecords.activationValues)
        }
    }

    /// Inserts a batch's rows, users first (every other row names one); returns how many of each were new.
    static func insert(_ rows: Rows, in db: some StoreConnection) throws -> SeedCounts {
        SeedCounts(
            users: try insert(rows.users, into: "users", columns: StoreRecords.userColumns, in: db),
            authenticators: try insert(
                rows.authenticators, into: "authenticators", columns: StoreRecords.authenticatorColumns, in: db),
            actions: try insert(rows.actions, into: "actions", columns: StoreRecords.actionColumns, in: db),
            challenges: try insert(rows.challenges, into: "challenges", columns: StoreRecords.challengeColumns, in: db),
            activations: try insert(rows.activations, into: "activations", columns: StoreRecords.activationColumns, in: db))
    }

    /// Inserts `rows` (each a record's values in `columns`' order) into `table`, a chunk per statement; returns how
    /// many were new.
    static func insert(
        _ rows: [[StoreValue]], into table: String, columns: String, in db: some StoreConnection
    ) throws -> Int {
        var inserted = 0
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + rowsPerStatement, rows.count)]
            inserted += try db.update(insert(into: table, columns: columns, rows: chunk.count), chunk.flatMap { $0 })
            start += chunk.count
        }
        return inserted
    }
}

extension SQLStore {
    package func tenantHasUsers(tenantID: String) async throws -> Bool {
        try await read { try $0.queryOne(SeedQueries.hasUsers, [.text(tenantID)]) { _ in true } ?? false }
    }

    package func insertSeedBatch(_ batch: SeedBatch) async throws -> SeedCounts {
        let rows = SeedQueries.Rows(batch)
        return try await write { db in try SeedQueries.insert(rows, in: db) }
    }
}
