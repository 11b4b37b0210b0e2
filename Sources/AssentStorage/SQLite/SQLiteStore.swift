package import AssentServerCore
import Foundation
import AssentSync

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, so a change is fsync'd before anyone
/// hears it happened. All writes go through one group-committing writer thread (``SQLiteWriter``); reads use a
/// small pool of read-only connections and see every committed write. The operations themselves are written once
/// for both backends (``SQLStore``); this type supplies the connections, and answers challenges and writes the push
/// delivery queue itself (`SQLiteStore+Challenges.swift`, `SQLiteStore+PushDelivery.swift`).
package final class SQLiteStore: SQLStore {
    let writer: SQLiteWriter
    private let readers: AssentLock<[SQLiteConnection]>
    private let path: String
    /// Changes made here clear it at once; changes another process makes (the `assent` CLI, another `assentd` on the
    /// same file) within a second, or within a poll interval once ``watchTenantChanges()`` runs.
    let tenantCache = TenantCache()
    private let watcher = AssentLock<SQLiteDataVersionWatcher?>(nil)

    /// Where operation latency is recorded; nil measures nothing.
    let metrics: DomainMetrics?

    /// Opens (creating when missing) the database at `path`, creating its directory (0700) and the file (0600) with
    /// owner-only permissions, and applies pending migrations — after a backup beside the database when
    /// `preMigration` asks for one and there are steps to apply (``PreMigrationBackup``). SQLite gives the `-wal`
    /// and `-shm` files the mode of the database file, so they are 0600 too; an existing database keeps the mode it
    /// has. Operation latency goes into `metrics` when given.
    package init(path: String, metrics: DomainMetrics? = nil, preMigration: PreMigrationBackup? = nil) throws {
        self.metrics = metrics
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        do {
            if !directory.isEmpty {
                try OwnerOnlyFiles.createDirectory(directory)
            }
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw POSIXError(.EISDIR)
            }
            if path != ":memory:" {
                try OwnerOnlyFiles.createFileIfMissing(path)
            }
        } catch {
            throw Self.unusable(path, error)
        }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path)
        } catch let error as StoreError {
            throw StoreError(error.code, error.reason + "; " + Self.choosePath)
        }
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = ON")
        if let preMigration {
            do {
                _ = try preMigration.run(path: path, connection: connection)
            } catch {
                throw StoreError(.migrationFailed, "no migration without the backup before it: \(ErrorText.describe(error))")
            }
        }
        try SQLiteMigrations.apply(to: connection)
        writer = SQLiteWriter(connection: connection)
        readers = AssentLock([])
    }

    /// `path` cannot be the database because of `error`: said for the person who chose the path (`--database`), not
    /// as a file-system error code.
    static func unusable(_ path: String, _ error: any Error) -> StoreError {
        StoreError(.openFailed, "cannot use \(path) as the SQLite database (\(ErrorText.describe(error))); " + choosePath)
    }

    /// What to do about a database path that cannot be used.
    private static let choosePath =
        "name a file in a directory this user can create or write with --database (or ASSENT_DATABASE)"

    package var databaseKind: String { "sqlite" }

    package func missingSchemaSteps() async throws -> [Int] {
        let applied = Set(try performRead { db in try db.query("SELECT version FROM schema_steps", []) { Int($0.int64(0)) } })
        return SQLiteMigrations.steps.map(\.version).filter { !applied.contains($0) }.sorted()
    }

    package func healthCheck() async throws {
        _ = try performRead { try $0.queryOne("SELECT 1") { $0.int64(0) } }
        _ = try await writer.write { _ in true }
    }

    deinit { watcher.withLock { $0?.stop() } }

    package func close() async {
        watcher.withLock { $0?.stop() }
        writer.close()
        readers.withLock { $0.removeAll() }
    }

    /// Runs `body` on a pooled read-only connection, on the caller's thread (SQLite answers from memory or the page
    /// cache; there is nothing to wait for).
    func performRead<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) throws -> T {
        let connection = try readers.withLock { $0.popLast() } ?? {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA query_only = 1")
            return connection
        }()
        defer { readers.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// Every write is a transaction of the single writer, so a lone statement needs nothing less.
    func performWriteOne<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await performWrite(body)
    }

    /// Runs `body` in the writer's next group-committed batch (in a savepoint of its own) and returns once it is
    /// durable. Nothing else writes meanwhile, so no race can make `body` start over: a ``StoreRetry`` here means the
    /// row it inserts exists, a constraint violation as SQLite would have reported it.
    func performWrite<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        do {
            return try await writer.write(body)
        } catch is StoreRetry {
            throw StoreError(.constraintViolation, "the row exists")
        }
    }

    /// The watcher sees every commit to the file; nothing to announce.
    static func announceTenantChange(_ connection: SQLiteConnection, tenantID: String) throws {}

    /// No other instance shares the file, so there is no one to announce to: the change feed of this process is fed
    /// by the services themselves (``ChallengeEvents``).
    func performWriteAndAnnounce(
        _ body: @escaping @Sendable (SQLiteConnection) throws -> Challenge?
    ) async throws -> Challenge? {
        try await performWrite(body)
    }
}

extension SQLiteStore: TenantChangeWatching {
    /// Polls `PRAGMA data_version` (``SQLiteDataVersionWatcher``) and clears the tenant cache whenever another
    /// connection committed — the CLI, another process, or this store's own writer (whose tenant changes already
    /// cleared it): at most one tenant read per tenant per poll interval, never one per request.
    package func watchTenantChanges() {
        guard path != ":memory:" else { return }
        let cache = tenantCache
        let started = SQLiteDataVersionWatcher(path: path) { cache.clear() }
        let previous = watcher.withLock { current -> SQLiteDataVersionWatcher? in
            defer { current = started }
            return current
        }
        previous?.stop()
        cache.watched()
        started.start()
    }
}
