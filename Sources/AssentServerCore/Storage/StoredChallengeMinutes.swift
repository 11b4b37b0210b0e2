/// The per-minute challenge counts a store holds for a tenant, and how far one instance's batches are in them
/// (``OverviewStore/challengeMinutes(tenantID:from:instance:)``), read at one moment.
package struct StoredChallengeMinutes: Sendable, Hashable {
    /// The stored counts of the minutes asked for.
    package var rows: [ChallengeMinute]
    /// The highest batch number of the instance asked for that the store has (0 when none): the reader adds exactly
    /// the counts that instance has not flushed.
    package var storedThrough: Int64

    /// What a store reports after reading `rows` and `storedThrough`.
    package init(rows: [ChallengeMinute], storedThrough: Int64) {
        self.rows = rows
        self.storedThrough = storedThrough
    }
}
