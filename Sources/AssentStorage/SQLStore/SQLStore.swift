import AssentServerCore

/// A store over SQL, written once for both backends. The store protocols' operations are extensions of this
/// protocol (`SQLStore+Tenants.swift`, `+Users`, `+Actions`, `+Credentials`, `+Challenges`, `+Webhooks`,
/// `+Activations`, `+PushDelivery`, `+Maintenance`) over ``StoreConnection`` and ``SQL``; a backend —
/// ``SQLiteStore`` or ``PostgresStore`` — supplies only how an operation reaches a connection, and implements itself
/// the few operations whose statements really differ (each says why).
///
/// Atomicity and durability stay the backend's: SQLite runs every write inside its single writer's group-committed
/// transaction (``SQLiteWriter``: fsync'd before anyone hears of it); PostgreSQL runs a write as one autocommitted
/// statement (``writeOne(_:)``) or one transaction at READ COMMITTED (``write(_:)``), made safe across instances by
/// conditional updates, row locks (`FOR UPDATE`, which the shared text spells for PostgreSQL only) and advisory locks
/// (``StoreConnection/lock(_:)``).
protocol SQLStore: ServerStore {
    associatedtype Connection: StoreConnection

    /// Tenants read recently.
    var tenantCache: TenantCache { get }

    /// Tells the other instances sharing the database that a tenant changed, inside the transaction that changed it
    /// (PostgreSQL's `NOTIFY`, delivered at commit); SQLite's watchers see the commit itself and need nothing.
    static func announceTenantChange(_ connection: Connection, tenantID: String) throws

    /// Runs statements that change nothing (SQLite: on a pooled reader; PostgreSQL: may be retried on a fresh
    /// connection).
    func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs one statement that changes data, as its own atomic unit. PostgreSQL saves the `BEGIN`/`COMMIT` round
    /// trips of ``write(_:)`` (a lone statement is atomic); SQLite runs it through the writer like any write.
    @discardableResult
    func writeOne<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs `body` as one transaction (PostgreSQL may run it again after a serialization failure, a deadlock or a
    /// ``StoreRetry``, so `body` does no I/O but the connection's).
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs `body` as one transaction and, once committed, announces the challenge it returns (if any) to the other
    /// instances sharing the database (PostgreSQL's `NOTIFY`); SQLite has no other instances and just writes.
    func writeAndAnnounce(_ body: @escaping @Sendable (Connection) throws -> Challenge?) async throws -> Challenge?
}
