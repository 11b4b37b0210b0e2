import AssentServerCore
import Foundation

/// PowerAuth applications and activations in PostgreSQL. The one read-modify-write, ``updateActivation(id:_:)``,
/// holds the activation's row lock (`SELECT … FOR UPDATE`) from its read to its write: a second verification of the
/// same activation — from this instance or any other — waits for the first to commit and then reads the counter it
/// left, so two requests can never consume the same counter value.
extension PostgresStore: ActivationStore {
    static let applicationColumns = SQLiteStore.applicationColumns

    package func powerAuthApplication(tenantID: String) async throws -> PowerAuthApplication? {
        try await read { db in
            try db.queryOne(
                "SELECT \(Self.applicationColumns) FROM powerauth_applications WHERE tenant_id = $1",
                [.text(tenantID)], StoreRecords.application)
        }
    }

    package func insertPowerAuthApplication(_ application: PowerAuthApplication) async throws -> PowerAuthApplication {
        try await write { db in
            // A creator racing this one (any instance) makes the insert wait for its commit and then do nothing; the
            // SELECT that follows is a new statement, so at READ COMMITTED it sees the winner's row.
            if let inserted = try db.queryOne(
                """
                INSERT INTO powerauth_applications (\(Self.applicationColumns)) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (tenant_id) DO NOTHING RETURNING \(Self.applicationColumns)
                """,
                [.text(application.tenantID), .text(application.applicationKey), .text(application.applicationSecret),
                 .blob(application.masterPublicKey), .blob(application.sealedMasterPrivateKey),
                 .integer(application.createdAt)],
                StoreRecords.application) {
                return inserted
            }
            guard let stored = try db.queryOne(
                "SELECT \(Self.applicationColumns) FROM powerauth_applications WHERE tenant_id = $1",
                [.text(application.tenantID)], StoreRecords.application)
            else { throw StoreError(.queryFailed, "the PowerAuth application vanished") }
            return stored
        }
    }

    static let activationColumns = SQLiteStore.activationColumns

    package func insertActivation(_ a: ActivationRecord) async throws {
        // The user record (when missing) and the activation in one statement, so one autocommitted round trip; a
        // duplicate id or enrolment key fails the whole statement with a constraint violation.
        try await writeOne { db in
            try db.update(
                """
                WITH u AS (
                  INSERT INTO users (tenant_id, user_id, created_at, updated_at) VALUES ($2, $3, $15, $15)
                  ON CONFLICT (tenant_id, user_id) DO NOTHING RETURNING 1)
                INSERT INTO activations (\(Self.activationColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
                """,
                [.text(a.id), .text(a.tenantID), .text(a.userID), .optional(a.name), .text(a.status.rawValue),
                 .optional(a.blockedReason?.rawValue), .blob(a.devicePublicKey), .blob(a.serverPublicKey),
                 .blob(a.sealedMasterSecret), .integer(a.counter), .blob(a.counterData),
                 .integer(Int64(a.failedAttempts)), .text(a.fingerprint), .text(a.enrolmentKey), .integer(a.createdAt),
                 .integer(a.updatedAt), .optional(a.lastUsedAt)])
        }
    }

    package func activation(id: String) async throws -> ActivationRecord? {
        try await read { db in
            try db.queryOne("SELECT \(Self.activationColumns) FROM activations WHERE id = $1", [.text(id)], StoreRecords.activation)
        }
    }

    package func activations(tenantID: String, userID: String) async throws -> [ActivationRecord] {
        try await read { db in
            try db.query(
                """
                SELECT \(Self.activationColumns) FROM activations WHERE tenant_id = $1 AND user_id = $2
                ORDER BY created_at, id
                """,
                [.text(tenantID), .text(userID)], StoreRecords.activation)
        }
    }

    package func updateActivation<T: Sendable>(
        id: String, _ body: @escaping @Sendable (inout ActivationRecord) throws -> T
    ) async throws -> T? {
        // Read under the row lock, decide, write, commit: concurrent updates of one activation from any number of
        // instances take turns, and each reads what the one before it committed. A deadlock or serialization
        // failure reruns the transaction, `body` included (it does no I/O).
        try await write { db -> T? in
            guard let before = try db.queryOne(
                "SELECT \(Self.activationColumns) FROM activations WHERE id = $1 FOR UPDATE", [.text(id)], StoreRecords.activation)
            else { return nil }
            var record = before
            let result = try body(&record)
            if record != before {
                try db.update(
                    """
                    UPDATE activations SET name = $1, status = $2, blocked_reason = $3, ctr = $4, ctr_data = $5,
                      failed_attempts = $6, updated_at = $7, last_used_at = $8
                    WHERE id = $9
                    """,
                    [.optional(record.name), .text(record.status.rawValue), .optional(record.blockedReason?.rawValue),
                     .integer(record.counter), .blob(record.counterData), .integer(Int64(record.failedAttempts)),
                     .integer(record.updatedAt), .optional(record.lastUsedAt), .text(id)])
            }
            return result
        }
    }
}
