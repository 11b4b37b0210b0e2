import AssentServerCore
import Foundation

extension DatabaseLocation {
    /// What `assentd check-config` learns about a database without changing it.
    package struct SchemaStatus: Sendable, Equatable {
        /// Whether the database exists (an SQLite file that is not there yet is created at first start).
        package var exists: Bool
        /// Schema steps this build has that the database has not had yet; `assentd` applies them at start.
        package var pendingSteps: [Int]
    }

    /// Connects (an SQLite file read-only, so nothing is created or migrated) and compares the applied schema steps
    /// with this build's. Throws ``StoreError`` when the database cannot be opened, or has a step this build does not
    /// know (it was migrated by a newer `assentd`).
    package func schemaStatus() throws -> SchemaStatus {
        switch self {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                return SchemaStatus(exists: false, pendingSteps: SQLiteMigrations.steps.map(\.version))
            }
            let connection = try SQLiteConnection(path: path, readOnly: true)
            let version = Int(try connection.queryOne("PRAGMA user_version") { $0.int64(0) } ?? 0)
            let hasSteps = try connection.queryOne(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_steps'") { $0.int64(0) } != nil
            var applied = Set(hasSteps ? try connection.query("SELECT version FROM schema_steps") { Int($0.int64(0)) } : [])
            let known = SQLiteMigrations.steps.map(\.version)
            if applied.isEmpty, version > 0 { applied = Set(known.filter { $0 <= version }) }
            if let unknown = applied.subtracting(known).max() ?? (version > (known.max() ?? 0) ? version : nil) {
                throw StoreError(.migrationFailed, "the database has schema step \(unknown), which this assentd does not know (it is newer)")
            }
            return SchemaStatus(exists: true, pendingSteps: known.filter { !applied.contains($0) }.sorted())
        case .postgres(let url):
            let connection = try PostgresConnection(url: url)
            let hasTable = try connection.queryOne("SELECT to_regclass('assent_schema') IS NOT NULL") { $0.bool(0) } ?? false
            let applied = Set(hasTable ? try connection.query("SELECT version FROM assent_schema") { Int($0.int64(0)) } : [])
            let known = PostgresMigrations.steps.map(\.version)
            if let unknown = applied.subtracting(known).max() {
                throw StoreError(.migrationFailed, "the database has schema step \(unknown), which this assentd does not know (it is newer)")
            }
            return SchemaStatus(exists: true, pendingSteps: known.filter { !applied.contains($0) }.sorted())
        }
    }
}
