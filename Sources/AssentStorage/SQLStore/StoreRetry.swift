/// Thrown inside a write to roll it back and run it again: a concurrent transaction won a race (e.g. inserted the
/// same key) that the operation can only resolve by starting over and finding what the winner stored. PostgreSQL's
/// pool reruns the transaction (``PostgresPool/transaction(_:afterCommit:)``); SQLite's single writer never races,
/// so there the conflict is a plain constraint violation (``SQLiteStore``).
struct StoreRetry: Error {}
