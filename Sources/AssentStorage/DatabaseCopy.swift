import AssentServerCore
import Foundation

/// Copies every table of an SQLite database into an empty PostgreSQL one (`assentd copy-sqlite`), in one
/// PostgreSQL transaction: all rows arrive, or none. Values are converted by the PostgreSQL column's type
/// (SQLite's 0/1 integers become booleans); an identity column's sequence continues after the copied ids.
package enum DatabaseCopy {
    /// The tables, parents before children.
    static let tables = [
        "tenants", "users", "actions", "authenticators", "challenges", "nonces", "spent_signatures",
        "webhook_outbox",
        "powerauth_applications", "activations", "push_deliveries", "challenge_timeline", "audit_entries",
        "attestation_challenges",
    ]

    /// Rows copied per table.
    package typealias Report = [(table: String, rows: Int)]

    /// Copies `sqlitePath` into the database at `postgresURL` (migrated first). Refuses when a target table has rows.
    package static func copy(sqlitePath: String, postgresURL: String) throws -> Report {
        guard FileManager.default.fileExists(atPath: sqlitePath) else {
            throw StoreError(.openFailed, "no SQLite database at \(sqlitePath)")
        }
        // Opening it through the store applies any pending SQLite migration first, so the columns match.
        try SQLiteStore(path: sqlitePath).writer.close()
        let source = try SQLiteConnection(path: sqlitePath, readOnly: true)
        let target = try PostgresConnection(url: postgresURL)
        try PostgresMigrations.apply(to: target)
        try target.execute("BEGIN")
        do {
            var report: Report = []
            for table in tables {
                let existing = try target.queryOne("SELECT COUNT(*) FROM \(table)") { $0.int64(0) } ?? 0
                guard existing == 0 else {
                    throw StoreError(.constraintViolation, "the PostgreSQL table \(table) is not empty")
                }
                let types = Dictionary(uniqueKeysWithValues: try target.query(
                    "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()",
                    [.text(table)]) { (try $0.string(0), try $0.string(1)) })
                let (columns, rows) = try source.table("SELECT * FROM \(table)")
                for column in columns where types[column] == nil {
                    throw StoreError(.migrationFailed, "PostgreSQL has no column \(table).\(column)")
                }
                let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
                let insert = SQL("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
                for row in rows {
                    try target.update(insert, zip(columns, row).map { column, value in convert(value, to: types[column]!) })
                }
                if types["id"] != nil, let sequence = try target.queryOne(
                    "SELECT pg_get_serial_sequence($1, 'id')", [.text(table)], { $0.optionalString(0) }) ?? nil {
                    // Copied rows kept their ids (challenge_timeline's order); new rows continue after them.
                    try target.update(
                        "SELECT setval($1::regclass, (SELECT COALESCE(MAX(id), 0) + 1 FROM \(table)), false)",
                        [.text(sequence)])
                }
                report.append((table, rows.count))
            }
            try target.execute("COMMIT")
            return report
        } catch {
            try? target.execute("ROLLBACK")
            throw error
        }
    }

    static func convert(_ value: StoreValue, to type: String) -> StoreValue {
        switch (value, type) {
        case (.null, _): return .null
        case (.integer(let v), "boolean"): return .bool(v != 0)
        case (.integer(let v), _): return .integer(v)
        case (.real(let v), _): return .text(String(v))
        case (.text(let v), _): return .text(v)
        case (.blob(let v), "bytea"): return .blob(v)
        case (.blob(let v), _): return .text(String(decoding: v, as: UTF8.self))
        case (.bool(let v), _): return .bool(v)
        }
    }
}
