import AssentServerCore

/// The connection was found dead before any work was sent on it.
struct PostgresConnectionLost: Error {
    var underlying: any Error
}
