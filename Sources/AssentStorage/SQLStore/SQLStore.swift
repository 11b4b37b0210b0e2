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

    /// Where store operation latency is recorded (nil: not measured, as in the CLI).
    var metrics: DomainMetrics? { get }

    /// Tells the other instances sharing the database that a tenant changed, inside the transaction that changed it
    /// (PostgreSQL's `NOTIFY`, delivered at commit); SQLite's watchers see the commit itself and need nothing.
    static func announceTenantChange(_ connection: Connection, tenantID: String) throws

    /// Runs statements that change nothing (SQLite: on a pooled reader; PostgreSQL: may be retried on a fresh
    /// connection). Operations call it as ``read(_:operation:)``, which times it.
    func performRead<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs one statement that changes data, as its own atomic unit. PostgreSQL saves the `BEGIN`/`COMMIT` round
    /// trips of ``performWrite(_:)`` (a lone statement is atomic); SQLite runs it through the writer like any write.
    func performWriteOne<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs `body` as one transaction (PostgreSQL may run it again after a serialization failure, a deadlock or a
    /// ``StoreRetry``, so `body` does no I/O but the connection's).
    func performWrite<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

    /// Runs `body` as one transaction and, once committed, announces the challenge it returns (if any) to the other
    /// instances sharing the database (PostgreSQL's `NOTIFY`); SQLite has no other instances and just writes.
    func performWriteAndAnnounce(_ body: @escaping @Sendable (Connection) throws -> Challenge?) async throws -> Challenge?
}

/// The four ways an operation reaches a connection, each timed into ``SQLStore/metrics`` under the name of the store
/// operation that called it (`#function`, cut at its first parenthesis: a closed set, one per store method).
extension SQLStore {
    /// ``performRead(_:)``, timed.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> T, operation: String = #function
    ) async throws -> T {
        try await timed(operation) { try await performRead(body) }
    }

    /// ``performWriteOne(_:)``, timed.
    @discardableResult
    func writeOne<T: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> T, operation: String = #function
    ) async throws -> T {
        try await timed(operation) { try await performWriteOne(body) }
    }

    /// ``performWrite(_:)``, timed.
    @discardableResult
    func write<T: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> T, operation: String = #function
    ) async throws -> T {
        try await timed(operation) { try await performWrite(body) }
    }

    /// ``performWriteAndAnnounce(_:)``, timed.
    func writeAndAnnounce(
        _ body: @escaping @Sendable (Connection) throws -> Challenge?, operation: String = #function
    ) async throws -> Challenge? {
        try await timed(operation) { try await performWriteAndAnnounce(body) }
    }

    private func timed<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        guard let metrics else { return try await body() }
        let started = ContinuousClock.now
        defer {
            let elapsed = (ContinuousClock.now - started).components
            let name = operation.firstIndex(of: "(").map { String(operation[..<$0]) } ?? operation
            metrics.storeOperation(name, seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
        return try await body()
    }
}
