import AssentServerCore
import Foundation

extension SQLiteStore: ActivationStore {
    static let applicationColumns =
        "tenant_id, application_key, application_secret, master_public_key, master_private_key_sealed, created_at"

    package func powerAuthApplication(tenantID: String) async throws -> PowerAuthApplication? {
        try read { db in
            try db.queryOne("SELECT \(Self.applicationColumns) FROM powerauth_applications WHERE tenant_id = ?",
                            [.text(tenantID)], StoreRecords.application)
        }
    }

    package func insertPowerAuthApplication(_ application: PowerAuthApplication) async throws -> PowerAuthApplication {
        try await writer.write { db in
            _ = try db.run(
                "INSERT INTO powerauth_applications (\(Self.applicationColumns)) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id) DO NOTHING",
                [.text(application.tenantID), .text(application.applicationKey), .text(application.applicationSecret),
                 .blob(application.masterPublicKey), .blob(application.sealedMasterPrivateKey), .integer(application.createdAt)])
            guard let stored = try db.queryOne(
                "SELECT \(Self.applicationColumns) FROM powerauth_applications WHERE tenant_id = ?",
                [.text(application.tenantID)], StoreRecords.application)
            else { throw StoreError(.queryFailed, "the PowerAuth application vanished") }
            return stored
        }
    }

    static let activationColumns = """
        id, tenant_id, user_id, name, status, blocked_reason, device_public_key, server_public_key, \
        master_secret_sealed, ctr, ctr_data, failed_attempts, fingerprint, enrolment_key, created_at, updated_at, \
        last_used_at
        """

    package func insertActivation(_ a: ActivationRecord) async throws {
        try await writer.write { db in
            _ = try db.run(
                """
                INSERT INTO users (tenant_id, user_id, created_at, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (tenant_id, user_id) DO NOTHING
                """,
                [.text(a.tenantID), .text(a.userID), .integer(a.createdAt), .integer(a.createdAt)])
            _ = try db.run(
                "INSERT INTO activations (\(Self.activationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(a.id), .text(a.tenantID), .text(a.userID), .optional(a.name), .text(a.status.rawValue),
                 .optional(a.blockedReason?.rawValue), .blob(a.devicePublicKey), .blob(a.serverPublicKey),
                 .blob(a.sealedMasterSecret), .integer(a.counter), .blob(a.counterData), .integer(Int64(a.failedAttempts)),
                 .text(a.fingerprint), .text(a.enrolmentKey), .integer(a.createdAt), .integer(a.updatedAt),
                 .optional(a.lastUsedAt)])
        }
    }

    package func activation(id: String) async throws -> ActivationRecord? {
        try read { db in
            try db.queryOne("SELECT \(Self.activationColumns) FROM activations WHERE id = ?", [.text(id)], StoreRecords.activation)
        }
    }

    package func activations(tenantID: String, userID: String) async throws -> [ActivationRecord] {
        try read { db in
            try db.query(
                "SELECT \(Self.activationColumns) FROM activations WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, id",
                [.text(tenantID), .text(userID)], StoreRecords.activation)
        }
    }

    package func updateActivation<T: Sendable>(
        id: String, _ body: @escaping @Sendable (inout ActivationRecord) throws -> T
    ) async throws -> T? {
        // The single writer runs this closure inside its transaction: nothing else writes between the read and the
        // write, so the read-modify-write is atomic.
        try await writer.write { db -> T? in
            guard let before = try db.queryOne(
                "SELECT \(Self.activationColumns) FROM activations WHERE id = ?", [.text(id)], StoreRecords.activation)
            else { return nil }
            var record = before
            let result = try body(&record)
            if record != before {
                _ = try db.run(
                    """
                    UPDATE activations SET name = ?, status = ?, blocked_reason = ?, ctr = ?, ctr_data = ?,
                      failed_attempts = ?, updated_at = ?, last_used_at = ?
                    WHERE id = ?
                    """,
                    [.optional(record.name), .text(record.status.rawValue), .optional(record.blockedReason?.rawValue),
                     .integer(record.counter), .blob(record.counterData), .integer(Int64(record.failedAttempts)),
                     .integer(record.updatedAt), .optional(record.lastUsedAt), .text(id)])
            }
            return result
        }
    }
}
