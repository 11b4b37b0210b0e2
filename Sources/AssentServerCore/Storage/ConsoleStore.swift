/// The admin console's admin tokens and sessions. Every method is one atomic, durable unit (see ``ServerStore``).
/// Ended sessions are deleted by ``StoreMaintenance/sweep(now:challengesBefore:eventsBefore:)``.
package protocol ConsoleStore: Sendable {
    /// Adds an admin token; fails with `constraintViolation` when its id or hash exists or its tenant does not.
    func insertAdminToken(_ token: AdminToken) async throws
    /// The admin token whose SHA-256 is `tokenHash`, expired or not.
    func adminToken(tokenHash: [UInt8]) async throws -> AdminToken?
    /// A tenant's admin tokens, expired ones included, oldest first.
    func adminTokens(tenantID: String) async throws -> [AdminToken]
    /// Deletes an admin token and every session it signed in; false when there was none with this id.
    func deleteAdminToken(id: String) async throws -> Bool

    /// Adds a session.
    func insertConsoleSession(_ session: ConsoleSession) async throws
    /// The session whose id hashes to `idHash`, ended or not.
    func consoleSession(idHash: [UInt8]) async throws -> ConsoleSession?
    /// Records a use: sets its last use and idle expiry; false when the session is gone.
    func touchConsoleSession(idHash: [UInt8], lastSeenAt: Int64, idleExpiresAt: Int64) async throws -> Bool
    /// Ends a session (sign-out); false when there was none.
    func deleteConsoleSession(idHash: [UInt8]) async throws -> Bool
}
