@testable import AssentStorage
import Testing

/// SQLite's plans for the sweeps' batches (PostgreSQL's are in ``PostgresQueryPlanTests``): each finds its rows
/// through an index, the anonymous-QR one through the partial index that holds only unclaimed anonymous QR
/// challenges, so a sweep reads nothing of the day of challenges kept for their timelines.
struct SQLiteSweepPlanTests {
    static func plan(_ sql: SQL, on connection: SQLiteConnection) throws -> [String] {
        // The last column of EXPLAIN QUERY PLAN is the step's description.
        try connection.query(SQL(stringLiteral: "EXPLAIN QUERY PLAN " + sql.sqlite), [.integer(0)]) { try $0.string(3) }
    }

    @Test func `each sweep batch searches an index, never the whole table`() async throws {
        let fixture = try await StoreFixture.make(.sqlite)
        let connection = try SQLiteConnection(path: fixture.location)
        let anonymous = try Self.plan(
            SweepBatch.delete(
                "challenges", where: "kind = 'qr' AND state = 'pending' AND user_id IS NULL AND expires_at <= $1"),
            on: connection)
        #expect(anonymous.contains { $0.contains("USING INDEX challenges_unclaimed_qr") }, "\(anonymous)")
        let batches: [(String, SQL)] = [
            ("challenges", SweepBatch.delete("challenges", where: "expires_at < $1")),
            ("nonces", SweepBatch.delete("nonces", where: "expires_at < $1")),
            ("spent_signatures", SweepBatch.delete("spent_signatures", key: "digest", where: "expires_at < $1")),
            ("attestation_challenges", SweepBatch.delete("attestation_challenges", key: "challenge", where: "expires_at < $1")),
            ("push_deliveries", SweepBatch.delete("push_deliveries", where: "state <> 'queued' AND finished_at < $1")),
            ("push_deliveries", SweepBatch.delete("push_deliveries", where: "expires_at < $1")),
            ("challenge_timeline", SweepBatch.delete("challenge_timeline", where: "at < $1")),
            ("webhook_outbox", SweepBatch.delete("webhook_outbox", where: "COALESCE(delivered_at, failed_at) < $1")),
        ]
        for (table, sql) in batches {
            let plan = try Self.plan(sql, on: connection)
            // The outer DELETE looks rows up by key; the inner SELECT must search, not scan, the table.
            #expect(!plan.contains { $0 == "SCAN \(table)" }, "\(table): \(plan)")
        }
    }
}
