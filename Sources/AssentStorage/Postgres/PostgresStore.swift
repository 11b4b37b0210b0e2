package import AssentServerCore
import Foundation
import AssentSync

/// The store for several `assentd` instances sharing one PostgreSQL database. Queries run on a pool of
/// connections (``PostgresPool``), each on its own queue; every method is one transaction at READ COMMITTED, made
/// safe under concurrency from any number of instances by conditional updates (`UPDATE … WHERE state = …`),
/// row locks (`SELECT … FOR UPDATE`, e.g. on an activation while its counter advances), transaction-scoped advisory
/// locks, and `FOR UPDATE SKIP LOCKED` for the webhook outbox and the push delivery queue. Claims and answers are
/// announced to the other instances with `NOTIFY` once committed (see ``performWriteAndAnnounce(_:)`` and
/// ``PostgresChangeListener``). The operations themselves are written once for both backends (``SQLStore``); this
/// type supplies the connections, and answers challenges and writes the push delivery queue itself, each in one
/// statement (`PostgresStore+Challenges.swift`, `PostgresStore+PushDelivery.swift`).
package final class PostgresStore: SQLStore {
    let pool: PostgresPool
    /// Tells this instance's own notifications apart from other instances'.
    let instanceID: String
    private let listener: AssentLock<PostgresChangeListener?> = AssentLock(nil)
    /// Changes made through this instance clear it at once; other instances' within a second, or as soon as their
    /// `NOTIFY` arrives once ``watchTenantChanges()`` runs.
    let tenantCache = TenantCache()
    private let tenantListener: AssentLock<PostgresChangeListener?> = AssentLock(nil)
    /// The channel challenge changes are announced on.
    static let challengeChannel = "assent_challenges"
    /// The channel tenant changes are announced on (the payload is the tenant id).
    static let tenantChannel = "assent_tenants"
    private static let notify: SQL = "SELECT pg_notify($1, $2)"

    /// Where operation latency is recorded; nil measures nothing.
    let metrics: DomainMetrics?

    /// Connects to `url` with a pool of `connections`, and applies pending migrations (under an advisory lock);
    /// records operation latency into `metrics` when given.
    package init(url: String, connections: Int, metrics: DomainMetrics? = nil) throws {
        self.metrics = metrics
        pool = PostgresPool(url: url, size: connections)
        instanceID = UUID().uuidString.lowercased()
        let connection = try PostgresConnection(url: url, roundTrips: pool.roundTrips)
        try PostgresMigrations.apply(to: connection)
    }

    /// Applies pending migrations to the database at `url` and returns the versions applied.
    package static func migrate(url: String) throws -> [Int] {
        try PostgresMigrations.apply(to: PostgresConnection(url: url))
    }

    package var databaseKind: String { "postgresql" }

    package var databaseRoundTrips: Int? { pool.roundTrips.total }

    package func missingSchemaSteps() async throws -> [Int] {
        let applied = Set(try await performRead { db in
            try db.query("SELECT version FROM assent_schema", []) { Int($0.int64(0)) }
        })
        return PostgresMigrations.steps.map(\.version).filter { !applied.contains($0) }.sorted()
    }

    package func healthCheck() async throws {
        let writable = try await performRead { db in
            try db.queryOne("SELECT NOT pg_is_in_recovery()") { $0.bool(0) } ?? false
        }
        guard writable else { throw StoreError(.queryFailed, "the database is a read-only replica") }
    }

    package func close() async {
        listener.withLock { $0?.stop() }
        tenantListener.withLock { $0?.stop() }
        pool.close()
    }

    /// Runs queries that change nothing (so they may be retried on a fresh connection).
    func performRead<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.withConnection(idempotent: true, body)
    }

    /// Runs one statement that changes data, on its own (PostgreSQL makes a lone statement atomic): the
    /// `BEGIN`/`COMMIT` round trips of ``performWrite(_:)`` are saved. Never retried, since a lost connection leaves its
    /// outcome unknown.
    func performWriteOne<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    func performWrite<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.transaction(body)
    }

    /// Runs `body` in a transaction and, once it committed, announces the challenge it returns (if any) to the other
    /// instances. The `NOTIFY` runs after the commit on purpose: PostgreSQL serialises the commits of all
    /// transactions that notify (a global lock held through the WAL flush), which made every answer wait for every
    /// other one; on its own a `NOTIFY` flushes nothing. It travels in the commit's pipeline, in a transaction of its
    /// own after the commit (one round trip for both). A crash between the two loses only the announcement, and the
    /// watchers' periodic re-check (``ChallengeEventBridge``) still sees the change.
    func performWriteAndAnnounce(
        _ body: @escaping @Sendable (PostgresConnection) throws -> Challenge?
    ) async throws -> Challenge? {
        let instanceID = self.instanceID
        return try await pool.transaction(body) { challenge in
            guard let challenge else { return nil }
            let payload = ChallengeChange(tenantID: challenge.tenantID, challengeID: challenge.id, state: challenge.state)
                .payload(from: instanceID)
            return (Self.notify, [.text(Self.challengeChannel), .text(payload)])
        }
    }
}

extension PostgresStore: ChallengeChangeFeed {
    package func watchChallengeChanges(_ handler: @escaping @Sendable (ChallengeChange) -> Void) {
        let started = PostgresChangeListener(
            url: pool.url, instanceID: instanceID, roundTrips: pool.roundTrips, handler: handler)
        let previous = listener.withLock { current -> PostgresChangeListener? in
            defer { current = started }
            return current
        }
        previous?.stop()
        started.start()
    }
}

extension PostgresStore: TenantChangeWatching {
    /// `NOTIFY assent_tenants` inside the changing transaction: delivered to every listening instance (this one too)
    /// when it commits, never for a change that rolled back.
    static func announceTenantChange(_ connection: PostgresConnection, tenantID: String) throws {
        _ = try connection.update(notify, [.text(tenantChannel), .text(tenantID)])
    }

    /// Listens on ``tenantChannel`` with a connection of its own and clears the tenant cache at every notification,
    /// and whenever listening (re)starts, since notifications sent while it was down are lost.
    package func watchTenantChanges() {
        let cache = tenantCache
        let started = PostgresChangeListener(
            url: pool.url, channel: Self.tenantChannel, roundTrips: pool.roundTrips, listening: { cache.clear() }
        ) { _ in
            cache.clear()
        }
        let previous = tenantListener.withLock { current -> PostgresChangeListener? in
            defer { current = started }
            return current
        }
        previous?.stop()
        cache.watched()
        started.start()
    }
}
