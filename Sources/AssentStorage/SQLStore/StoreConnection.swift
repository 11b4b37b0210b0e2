import AssentServerCore

/// What a store operation runs its statements on — an SQLite connection (the writer's, inside its group-committed
/// transaction, or a pooled reader) or a PostgreSQL connection (inside a transaction, or on its own for a single
/// statement) — so an operation whose statements are the same in both dialects is written once (see ``SQL`` and
/// ``SQLStore``). Each connection prepares a statement once and reuses it.
protocol StoreConnection {
    /// The connection's result row.
    associatedtype Row: StoreRow

    /// Runs `sql` with `values` and maps every row.
    func query<T>(_ sql: SQL, _ values: [StoreValue], _ map: (Row) throws -> T) throws -> [T]
    /// Runs `sql` with `values` and maps its first row, if any.
    func queryOne<T>(_ sql: SQL, _ values: [StoreValue], _ map: (Row) throws -> T) throws -> T?
    /// Runs `sql` with `values` and returns how many rows it changed.
    @discardableResult
    func update(_ sql: SQL, _ values: [StoreValue]) throws -> Int
    /// Takes a lock named `key` until the transaction ends, so transactions of any instance that take it take turns:
    /// PostgreSQL's transaction-scoped advisory lock (one round trip). SQLite does nothing: its single writer already
    /// runs one transaction at a time.
    func lock(_ key: String) throws
}
