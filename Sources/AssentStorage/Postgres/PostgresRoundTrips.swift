import Synchronization

/// Counts the message exchanges with PostgreSQL that wait on the server — a round trip each: a connection's start-up,
/// a simple query, a `Prepare` or `Execute` sent on its own, or a pipeline (several messages up to one `Sync`, read
/// back in one go). One counter per store, shared by its pool and its listening connection; exported on `/metrics`
/// as `assent_database_round_trips_total`.
final class PostgresRoundTrips: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Records `exchanges` round trips.
    func add(_ exchanges: Int = 1) {
        count.add(exchanges, ordering: .relaxed)
    }

    /// The round trips so far.
    var total: Int { count.load(ordering: .relaxed) }
}
