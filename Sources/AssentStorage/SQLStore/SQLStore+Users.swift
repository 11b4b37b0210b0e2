import AssentServerCore

/// Users' statements, the same in both dialects.
enum UserQueries {
    static let byID: SQL = "SELECT \(StoreRecords.userColumns) FROM users WHERE tenant_id = $1 AND user_id = $2"
    /// ``byID`` holding the row lock in PostgreSQL until the transaction ends.
    static let byIDLocked: SQL = "\(byID) \(postgres: "FOR UPDATE")"
    /// Creates or replaces a user record: parameters `$1`…`$12` are ``StoreRecords/userValues(_:)``.
    static let upsert: SQL = """
        INSERT INTO users (\(StoreRecords.userColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        ON CONFLICT (tenant_id, user_id) DO UPDATE SET email = excluded.email,
          email_verified = excluded.email_verified, phone_number = excluded.phone_number,
          phone_number_verified = excluded.phone_number_verified, username = excluded.username,
          display_name = excluded.display_name, locale = excluded.locale, custom = excluded.custom,
          updated_at = excluded.updated_at
        """
    /// Creates the user record ($1, $2, created at $3) when missing, leaving an existing one as it is.
    static let ensure: SQL = """
        INSERT INTO users (tenant_id, user_id, created_at, updated_at) VALUES ($1, $2, $3, $3)
        ON CONFLICT (tenant_id, user_id) DO NOTHING
        """
    static let delete: SQL = "DELETE FROM users WHERE tenant_id = $1 AND user_id = $2"

    static func user(tenantID: String, userID: String, lock: Bool = false, in db: some StoreConnection) throws -> User? {
        try db.queryOne(lock ? byIDLocked : byID, [.text(tenantID), .text(userID)], StoreRecords.user)
    }

    static func ensureUser(tenantID: String, userID: String, now: Int64, in db: some StoreConnection) throws {
        try db.update(ensure, [.text(tenantID), .text(userID), .integer(now)])
    }
}

extension SQLStore {
    package func user(tenantID: String, userID: String) async throws -> User? {
        try await read { try UserQueries.user(tenantID: tenantID, userID: userID, in: $0) }
    }

    package func saveUser(_ user: User) async throws {
        try await writeOne { try $0.update(UserQueries.upsert, StoreRecords.userValues(user)) }
    }

    package func deleteUser(
        tenantID: String, userID: String, audit: AuditAppend?,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await write { db in
            // Locked first (PostgreSQL), so no authenticator is added between the events and the delete.
            guard try UserQueries.user(tenantID: tenantID, userID: userID, lock: true, in: db) != nil else { return false }
            for authenticator in try CredentialQueries.authenticators(tenantID: tenantID, userID: userID, in: db) {
                try WebhookQueries.enqueue(events(authenticator), in: db)
            }
            guard try db.update(UserQueries.delete, [.text(tenantID), .text(userID)]) == 1 else { return false }
            try UserDataQueries.eraseUser(tenantID: tenantID, userID: userID, in: db)
            if let audit { try AuditQueries.append(audit, on: db) }
            return true
        }
    }
}
