/// User records, as the tenant's backend describes its users. Kept apart from ``ActionStore``: the user service
/// needs users and their authenticators but never actions, and ``ActionStore/trackAction(_:user:decide:)`` writes the
/// user record itself, in its own transaction. Every method is one atomic, durable unit (see ``ServerStore``).
package protocol UserStore: Sendable {
    /// The user, if Assent has a record of it.
    func user(tenantID: String, userID: String) async throws -> User?
    /// Creates or replaces a user record.
    func saveUser(_ user: User) async throws
    /// Deletes the user with everything stored about it but the audit entries that name it — authenticators,
    /// actions, activations, challenges with their timelines and deliveries, the push throttle, attestation challenges
    /// and webhook events already sent — queueing `events` for each authenticator and appending `audit` in the same
    /// transaction; false (and nothing appended) when there was nothing to delete.
    func deleteUser(
        tenantID: String, userID: String, audit: AuditAppend?,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool
}
