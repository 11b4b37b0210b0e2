/// Looking after the database itself: removing what can no longer matter, answering health checks, closing.
package protocol StoreMaintenance: Sendable {
    /// Deletes what can no longer matter: anonymous QR challenges no device claimed that expired by `now` and were
    /// counted as expired (``MetricsStore/countExpiredChallenges(through:)``; nothing
    /// refers to them and no one answered them, so a flood of anonymous starts leaves only what is live), other
    /// challenges expired before `challengesBefore` (kept that long for their timelines), expired nonces, console sessions
    /// ended (idle or past their expiry) by `now`, and outbox
    /// events delivered or given up before `eventsBefore`, and the overview's per-minute counts and batch records
    /// past their two days (``OverviewStore``). Returns how many rows went.
    func sweep(now: Int64, challengesBefore: Int64, eventsBefore: Int64) async throws -> Int

    /// Throws unless the database answers a trivial query and accepts a trivial write.
    func healthCheck() async throws

    /// The schema steps this build knows that the database has not had (empty when its schema is current), for
    /// `/healthz/ready`: an instance whose database another build migrated differently is not ready.
    func missingSchemaSteps() async throws -> [Int]

    /// What kind of database this is (`sqlite`, `postgresql`), for `/healthz` and logs.
    var databaseKind: String { get }

    /// Finishes pending writes and releases the database.
    func close() async

    /// The message exchanges with a database server that waited on it so far (each a round trip over the network),
    /// for `/metrics`; nil for a database in the process (SQLite), which has none.
    var databaseRoundTrips: Int? { get }
}

extension StoreMaintenance {
    package var databaseRoundTrips: Int? { nil }
}
