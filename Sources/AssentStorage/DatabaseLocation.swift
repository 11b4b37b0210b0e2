package import AssentServerCore
import Foundation

/// Where Assent keeps its data, from `--database` / `--database-url`: an SQLite file (a path, `sqlite:PATH` or
/// `file:PATH`) or a PostgreSQL server (`postgres://` or `postgresql://` URL).
package enum DatabaseLocation: Sendable, Hashable {
    /// The embedded store in this file.
    case sqlite(path: String)
    /// A PostgreSQL database shared by any number of instances.
    case postgres(url: String)

    /// Reads a `--database` value.
    package init(_ value: String) {
        if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            self = .postgres(url: value)
            return
        }
        for prefix in ["sqlite://", "sqlite:", "file://", "file:"] where value.hasPrefix(prefix) {
            self = .sqlite(path: String(value.dropFirst(prefix.count)))
            return
        }
        self = .sqlite(path: value)
    }

    /// True for a database several instances may share.
    package var isShared: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// The location for logs: the SQLite path, or the PostgreSQL URL without its password.
    package var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://") else { return url }
            let credentials = url[scheme.upperBound..<at]
            guard let colon = credentials.firstIndex(of: ":") else { return url }
            return String(url[..<colon]) + ":***" + String(url[at...])
        }
    }

    /// Opens the store (applying pending migrations); `connections` sizes a PostgreSQL pool. An SQLite database is
    /// backed up beside itself first when `preMigration` is given and a migration is due.
    package func open(
        connections: Int, metrics: DomainMetrics? = nil, preMigration: PreMigrationBackup? = nil
    ) throws -> any ServerStore {
        switch self {
        case .sqlite(let path): return try SQLiteStore(path: path, metrics: metrics, preMigration: preMigration)
        case .postgres(let url): return try PostgresStore(url: url, connections: connections, metrics: metrics)
        }
    }
}
