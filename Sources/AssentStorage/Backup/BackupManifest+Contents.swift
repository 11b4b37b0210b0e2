import AssentServerCore
import Foundation

extension BackupManifest.Contents {
    /// Reads what a backup records from an SQLite database: applied schema steps, rows in every table, audit heads.
    static func read(sqlite connection: SQLiteConnection) throws -> Self {
        let hasSteps = try connection.queryOne(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_steps'") { $0.int64(0) } != nil
        var steps = hasSteps ? try connection.query("SELECT version FROM schema_steps") { Int($0.int64(0)) } : []
        let version = Int(try connection.queryOne("PRAGMA user_version") { $0.int64(0) } ?? 0)
        if steps.isEmpty, version > 0 {
            // Databases from before `schema_steps` had every step up to their user_version.
            steps = SQLiteMigrations.steps.map(\.version).filter { $0 <= version }
        }
        let tables = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
                try $0.string(0)
            }
        return try read(connection, steps: steps, tables: tables)
    }

    /// Reads what a backup records from a PostgreSQL database (inside the caller's transaction, so it describes the
    /// same snapshot `pg_dump` copies).
    static func read(postgres connection: PostgresConnection) throws -> Self {
        let tables = try connection.query(
            """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
            """) { try $0.string(0) }
        let steps = tables.contains("assent_schema")
            ? try connection.query("SELECT version FROM assent_schema") { Int($0.int64(0)) } : []
        return try read(connection, steps: steps, tables: tables)
    }

    private static func read<C: StoreConnection>(_ connection: C, steps: [Int], tables: [String]) throws -> Self {
        var counts: [String: Int64] = [:]
        for table in tables {
            counts[table] = try connection.queryOne(SQL("SELECT COUNT(*) FROM \"\(table)\""), []) { $0.int64(0) } ?? 0
        }
        var heads: [String: BackupManifest.AuditHead] = [:]
        if tables.contains("audit_entries") {
            let rows = try connection.query(
                """
                SELECT a.tenant_id, a.sequence, a.mac FROM audit_entries a
                WHERE a.sequence = (SELECT MAX(b.sequence) FROM audit_entries b WHERE b.tenant_id = a.tenant_id)
                """, []) { (try $0.string(0), $0.int64(1), $0.blob(2)) }
            for (tenant, sequence, mac) in rows {
                heads[tenant] = BackupManifest.AuditHead(sequence: sequence, mac: BackupManifest.hex(mac))
            }
        }
        let sorted = steps.sorted()
        return Self(schemaStep: sorted.last ?? 0, schemaSteps: sorted, rowCounts: counts, auditHeads: heads)
    }

    /// The first way `restored` differs from what the manifest recorded, for the operator; nil when it matches.
    func difference(from restored: Self) -> String? {
        if restored.schemaSteps != schemaSteps {
            return "schema steps are \(restored.schemaSteps), the manifest says \(schemaSteps)"
        }
        for (table, count) in rowCounts.sorted(by: { $0.key < $1.key }) where restored.rowCounts[table] != count {
            return "table \(table) has \(restored.rowCounts[table].map(String.init) ?? "no") rows, the manifest says \(count)"
        }
        if let extra = Set(restored.rowCounts.keys).subtracting(rowCounts.keys).sorted().first {
            return "table \(extra) is not in the manifest"
        }
        for (tenant, head) in auditHeads.sorted(by: { $0.key < $1.key }) where restored.auditHeads[tenant] != head {
            let found = restored.auditHeads[tenant].map { "sequence \($0.sequence)" } ?? "no entries"
            return "the audit chain of tenant \(tenant) ends at \(found), the manifest says sequence \(head.sequence) with another MAC"
        }
        if let extra = Set(restored.auditHeads.keys).subtracting(auditHeads.keys).sorted().first {
            return "tenant \(extra) has audit entries the manifest does not list"
        }
        return nil
    }
}
