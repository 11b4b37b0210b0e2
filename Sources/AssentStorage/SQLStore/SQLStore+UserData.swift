import AssentServerCore

/// A user's data for a data-subject request, and what deleting the user erases beyond the rows that go with the user
/// record by foreign key (authenticators and their nonces, actions, activations): the same in both dialects.
enum UserDataQueries {
    static let actions: SQL = """
        SELECT \(StoreRecords.actionColumns) FROM actions WHERE tenant_id = $1 AND user_id = $2 ORDER BY created_at, idempotency_key
        """
    static let challenges: SQL = """
        SELECT \(StoreRecords.challengeColumns) FROM challenges WHERE tenant_id = $1 AND user_id = $2 ORDER BY created_at, id
        """
    /// The entries whose subject is the user or whose details name it as `userId`. Reads the tenant's chain (an
    /// export is rare; the chain has no index by user, and an entry's details are JSON text).
    static let auditEntries: SQL = """
        SELECT \(AuditQueries.columns) FROM audit_entries
        WHERE tenant_id = $1 AND (subject = $2 OR \(sqlite: "json_extract(details, '$.userId')", postgres: "(details::jsonb ->> 'userId')") = $2)
        ORDER BY sequence
        """

    /// The statements that erase the user's rows no foreign key reaches, in order ($1 tenant, $2 user): the push
    /// deliveries and timelines of the user's challenges, the challenges (with their IP addresses and user agents),
    /// the push throttle, pending attestation challenges, the sign-in history, and the webhook events already
    /// delivered or given up on that name the user (events still waiting go out first: the backend needs their
    /// `authenticator.deleted`).
    static let erase: [SQL] = [
        """
        DELETE FROM push_deliveries WHERE challenge_id IN (SELECT id FROM challenges WHERE tenant_id = $1 AND user_id = $2)
        """,
        """
        DELETE FROM challenge_timeline WHERE challenge_id IN (SELECT id FROM challenges WHERE tenant_id = $1 AND user_id = $2)
        """,
        "DELETE FROM challenges WHERE tenant_id = $1 AND user_id = $2",
        "DELETE FROM push_guards WHERE tenant_id = $1 AND user_id = $2",
        "DELETE FROM attestation_challenges WHERE tenant_id = $1 AND user_id = $2",
        SignInQueries.deleteUser,
        """
        DELETE FROM webhook_outbox WHERE tenant_id = $1 AND (delivered_at IS NOT NULL OR failed_at IS NOT NULL)
          AND \(sqlite: "json_extract(body, '$.data.userId')", postgres: "(body::jsonb #>> '{data,userId}')") = $2
        """,
    ]

    /// Erases the user's rows ``erase`` names, inside the caller's transaction.
    static func eraseUser(tenantID: String, userID: String, in db: some StoreConnection) throws {
        for statement in erase { try db.update(statement, [.text(tenantID), .text(userID)]) }
    }
}

extension SQLStore {
    package func userData(tenantID: String, userID: String, audit: AuditAppend?) async throws -> UserData {
        try await write { db in
            let values: [StoreValue] = [.text(tenantID), .text(userID)]
            if let audit { try AuditQueries.append(audit, on: db) }
            return UserData(
                user: try UserQueries.user(tenantID: tenantID, userID: userID, in: db),
                authenticators: try CredentialQueries.authenticators(tenantID: tenantID, userID: userID, in: db),
                activations: try db.query(ActivationQueries.byUser, values, StoreRecords.activation),
                actions: try db.query(UserDataQueries.actions, values, StoreRecords.action),
                challenges: try db.query(UserDataQueries.challenges, values, StoreRecords.challenge),
                signIns: try db.query(SignInQueries.byUser, values, SignInQueries.signIn),
                auditEntries: try db.query(UserDataQueries.auditEntries, values, AuditQueries.entry))
        }
    }
}
