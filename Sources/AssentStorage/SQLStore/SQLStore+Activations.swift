import AssentServerCore

/// PowerAuth applications' and activations' statements, the same in both dialects.
enum ActivationQueries {
    static let application: SQL = """
        SELECT \(StoreRecords.applicationColumns) FROM powerauth_applications WHERE tenant_id = $1
        """
    /// Inserts an application ($1…$6, ``StoreRecords/applicationValues(_:)``) unless the tenant has one; returns it
    /// when inserted.
    static let insertApplication: SQL = """
        INSERT INTO powerauth_applications (\(StoreRecords.applicationColumns)) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (tenant_id) DO NOTHING RETURNING \(StoreRecords.applicationColumns)
        """
    /// The user record (when missing) and the activation ($1…$21, ``StoreRecords/activationValues(_:)``) as one
    /// write; a duplicate id or enrolment key fails it whole with a constraint violation.
    static let insertActivation: SQL = .chain("""
        INSERT INTO users (tenant_id, user_id, created_at, updated_at) VALUES ($2, $3, $15, $15)
        ON CONFLICT (tenant_id, user_id) DO NOTHING
        """, then: """
        INSERT INTO activations (\(StoreRecords.activationColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
        """)
    static let activation: SQL = "SELECT \(StoreRecords.activationColumns) FROM activations WHERE id = $1"
    /// ``activation`` holding the row lock in PostgreSQL until the transaction ends.
    static let activationLocked: SQL = "\(activation) \(postgres: "FOR UPDATE")"
    static let byUser: SQL = """
        SELECT \(StoreRecords.activationColumns) FROM activations WHERE tenant_id = $1 AND user_id = $2
        ORDER BY created_at, id
        """
    static let update: SQL = """
        UPDATE activations SET name = $1, status = $2, blocked_reason = $3, ctr = $4, ctr_data = $5,
          failed_attempts = $6, updated_at = $7, last_used_at = $8
        WHERE id = $9
        """
}

/// PowerAuth applications and activations. The one read-modify-write, ``updateActivation(id:audit:_:)``, holds the
/// activation from its read to its write: SQLite's single writer runs nothing else in between; PostgreSQL holds the
/// row lock (`SELECT … FOR UPDATE`), so a second verification of the same activation — from this instance or any
/// other — waits for the first to commit and then reads the counter it left. Two requests can never consume the same
/// counter value.
extension SQLStore {
    package func powerAuthApplication(tenantID: String) async throws -> PowerAuthApplication? {
        try await read { try $0.queryOne(ActivationQueries.application, [.text(tenantID)], StoreRecords.application) }
    }

    package func insertPowerAuthApplication(_ application: PowerAuthApplication) async throws -> PowerAuthApplication {
        try await write { db in
            // A creator racing this one (any instance) makes the insert wait for its commit and then do nothing; the
            // SELECT that follows is a new statement, so at READ COMMITTED it sees the winner's row.
            if let inserted = try db.queryOne(
                ActivationQueries.insertApplication, StoreRecords.applicationValues(application), StoreRecords.application) {
                return inserted
            }
            guard let stored = try db.queryOne(
                ActivationQueries.application, [.text(application.tenantID)], StoreRecords.application)
            else { throw StoreError(.queryFailed, "the PowerAuth application vanished") }
            return stored
        }
    }

    package func insertActivation(_ activation: ActivationRecord, attestation: AttestationChallengeUse?) async throws {
        try await write { db in
            // The enrolment token's action first, as a device credential's enrolment takes it: a push or QR key
            // enrolled with the same token (before, or concurrently on another instance) refuses this activation.
            let enrolled = try CredentialQueries.lockEnrolment(
                tenantID: activation.tenantID, enrolmentKey: activation.enrolmentKey, in: db)
            try CredentialQueries.claimEnrolment(
                enrolled: enrolled, credentialID: activation.id, tenantID: activation.tenantID,
                enrolmentKey: activation.enrolmentKey, in: db)
            // The attestation's challenge is spent, and its App Attest key id checked, in the same transaction.
            try CredentialQueries.attest(
                id: activation.id, tenantID: activation.tenantID, appAttestKeyID: activation.appAttestKeyID,
                use: attestation, in: db)
            try db.update(ActivationQueries.insertActivation, StoreRecords.activationValues(activation))
        }
    }

    package func activation(id: String) async throws -> ActivationRecord? {
        try await read { try $0.queryOne(ActivationQueries.activation, [.text(id)], StoreRecords.activation) }
    }

    package func activations(tenantID: String, userID: String) async throws -> [ActivationRecord] {
        try await read { try $0.query(ActivationQueries.byUser, [.text(tenantID), .text(userID)], StoreRecords.activation) }
    }

    package func updateActivation<T: Sendable>(
        id: String, audit: @escaping @Sendable (_ before: ActivationRecord, _ after: ActivationRecord) -> AuditAppend?,
        _ body: @escaping @Sendable (inout ActivationRecord) throws -> T
    ) async throws -> T? {
        // Read (under the row lock), decide, write, commit. A deadlock or serialization failure reruns the
        // transaction, `body` included (it does no I/O).
        try await write { db -> T? in
            guard let before = try db.queryOne(ActivationQueries.activationLocked, [.text(id)], StoreRecords.activation)
            else { return nil }
            var record = before
            let result = try body(&record)
            if record != before {
                try db.update(
                    ActivationQueries.update,
                    [.optional(record.name), .text(record.status.rawValue), .optional(record.blockedReason?.rawValue),
                     .integer(record.counter), .blob(record.counterData), .integer(Int64(record.failedAttempts)),
                     .integer(record.updatedAt), .optional(record.lastUsedAt), .text(id)])
                if let entry = audit(before, record) { try AuditQueries.append(entry, on: db) }
            }
            return result
        }
    }
}
