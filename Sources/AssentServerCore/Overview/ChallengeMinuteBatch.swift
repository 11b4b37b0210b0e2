/// Per-minute counts one instance adds to the store in one go. Batches are numbered per instance (``instance``,
/// ``sequence`` from 1), and the store records each one it took: adding a batch the store has changes nothing, so a
/// batch whose commit went unacknowledged (a connection lost at `COMMIT`) can be sent again without counting twice,
/// and a reader can tell which of an instance's batches the store has (every one up to the highest it recorded: an
/// instance sends its next batch only once the store took the last).
package struct ChallengeMinuteBatch: Sendable, Hashable {
    /// The instance that counted them (random per process).
    package var instance: String
    /// The batch's number at that instance, from 1.
    package var sequence: Int64
    /// When the batch was made (milliseconds); the store keeps its record of the batch two days from then.
    package var createdAt: Int64
    /// The rows, at most one per key, in key order.
    package var rows: [ChallengeMinute]

    /// A batch of `rows` (sorted here by key).
    package init(instance: String, sequence: Int64, createdAt: Int64, rows: [ChallengeMinute]) {
        self.instance = instance
        self.sequence = sequence
        self.createdAt = createdAt
        self.rows = rows.sorted { $0.key < $1.key }
    }
}
