import AssentServerCore

/// Thrown inside a ``PostgresPool/transaction(_:)`` body to roll back and run it again (a concurrent insert won a
/// race the body can only resolve by starting over).
struct PostgresRetry: Error {}
