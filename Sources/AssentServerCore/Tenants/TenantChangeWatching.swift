/// A store that caches tenants and can keep the cache fresh by watching the database, so every request finds its
/// tenant without a read and still sees a change another process or instance made within a bound: SQLite polls
/// `PRAGMA data_version` (``pollInterval``), PostgreSQL listens for the `NOTIFY` every tenant change sends.
package protocol TenantChangeWatching: Sendable {
    /// Starts watching: from then on cached tenants are kept until a change elsewhere clears them (and, as a safety
    /// net, at most a minute), instead of being read again every second. Stops when the store closes.
    func watchTenantChanges()
}

/// The bounds ``TenantChangeWatching`` documents.
package enum TenantChangeBounds {
    /// How often SQLite's watcher asks whether another connection committed (`PRAGMA data_version`).
    package static let pollInterval: Duration = .milliseconds(250)
}
