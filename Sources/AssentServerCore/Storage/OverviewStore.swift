/// The admin console overview's counters. Every method is one atomic unit (see ``ServerStore``).
///
/// - **Per-minute challenge counts** (`overview_minutes`: tenant, minute, kind → started, approved, denied,
///   expired): starts, approvals and denials arrive as batches each instance counted in memory (``OverviewTally``,
///   added by ``addChallengeMinutes(_:)`` about twice a second); expiries are added by
///   ``MetricsStore/countExpiredChallenges(through:)`` in the transaction that counts them, once across instances,
///   under the minute they expired in. Kept two days (``retentionMilliseconds``), then swept in bounded batches.
/// - **Totals** (`overview_totals`: tenant, name → value, names as ``OverviewTotals/init(named:)`` reads them): the
///   database's own triggers count in the very transaction that inserts or deletes a user, authenticator or
///   activation or changes an activation's status — cascades and bulk seeding included — so the totals are exact.
///   On PostgreSQL a trigger appends a change row (`overview_total_changes`), so no request updates a shared row;
///   ``foldOverviewTotals(limit:)`` folds the change rows into the totals in the background, and a read adds the
///   rows not folded yet. SQLite, whose single writer serialises every write anyway, adds to the totals row at once
///   (its fold finds nothing).
package protocol OverviewStore: Sendable {
    /// Adds `batch`'s counts to the stored per-minute counts and records the batch, unless the store has it already.
    /// True when it added, false when the batch was there (nothing changed).
    func addChallengeMinutes(_ batch: ChallengeMinuteBatch) async throws -> Bool

    /// Folds up to `limit` change rows into the totals (one instance at a time); returns how many it folded.
    func foldOverviewTotals(limit: Int) async throws -> Int

    /// The tenant's totals by name: the folded values plus the changes not folded yet, read at one moment.
    func overviewTotals(tenantID: String) async throws -> [String: Int]

    /// The tenant's per-minute counts of the minutes from `from` (milliseconds, inclusive), and — read at the same
    /// moment — the highest batch number of `instance` the store has (0 when none), so the reader can add exactly
    /// the counts that instance has not flushed.
    func challengeMinutes(
        tenantID: String, from: Int64, instance: String
    ) async throws -> StoredChallengeMinutes
}

extension OverviewStore {
    /// How long per-minute counts and the record of added batches are kept (two days).
    package static var retentionMilliseconds: Int64 { 2 * 86_400_000 }
}
