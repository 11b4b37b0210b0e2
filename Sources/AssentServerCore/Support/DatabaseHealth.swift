/// What the operator endpoints (`/healthz`, `/healthz/ready`, `/metrics`) may ask of the database: whether it answers,
/// whether its schema is current, what kind it is and how many round trips it waited on. Nothing else of
/// ``StoreMaintenance`` (sweeping, closing) is reachable from a handler.
package struct DatabaseHealth: Sendable {
    private let store: any StoreMaintenance

    /// The health of `store`'s database.
    package init(store: any StoreMaintenance) { self.store = store }

    /// Throws unless the database answers a trivial query and accepts a trivial write.
    package func check() async throws { try await store.healthCheck() }

    /// The schema steps this build knows that the database has not had (empty when current).
    package func missingSchemaSteps() async throws -> [Int] { try await store.missingSchemaSteps() }

    /// `sqlite` or `postgresql`.
    package var databaseKind: String { store.databaseKind }

    /// Round trips to a database server so far; nil for SQLite.
    package var databaseRoundTrips: Int? { store.databaseRoundTrips }
}
