import AssentServerCore
import AssentWire

/// Authenticators', device credentials' and nonces' statements, the same in both dialects.
enum CredentialQueries {
    // MARK: Authenticators

    static let byUser: SQL = """
        SELECT \(StoreRecords.authenticatorColumns) FROM authenticators WHERE tenant_id = $1 AND user_id = $2
        ORDER BY created_at, id
        """
    /// Inserts an authenticator: parameters `$1`…`$26` are ``StoreRecords/authenticatorValues(_:)``.
    static let insert = SQL("""
        INSERT INTO authenticators (\(StoreRecords.authenticatorColumns))
        VALUES (\((1...StoreRecords.authenticatorColumnCount).map { "$\($0)" }.joined(separator: ", ")))
        """)
    /// ``insert`` that changes nothing (reports 0) when the id or the key is taken.
    static let insertUnlessTaken: SQL = "\(insert) ON CONFLICT DO NOTHING"
    static let delete: SQL = """
        DELETE FROM authenticators WHERE tenant_id = $1 AND user_id = $2 AND id = $3
        RETURNING \(StoreRecords.authenticatorColumns)
        """

    /// Thrown inside a removal's transaction to roll it back when the credential was not there.
    struct NothingRemoved: Error {}
    /// Thrown inside a removal's transaction to roll it back when one of its signature's digests was spent before
    /// (the digests recorded ahead of it with it).
    struct SignatureSpent: Error {}
    /// Records a spent removal signature; 0 rows when it was spent before.
    static let spendSignature: SQL = "INSERT INTO spent_signatures (digest, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING"

    static func authenticators(tenantID: String, userID: String, in db: some StoreConnection) throws -> [Authenticator] {
        try db.query(byUser, [.text(tenantID), .text(userID)], StoreRecords.authenticator)
    }

    // MARK: Device credentials

    static let byKey: SQL = """
        SELECT \(StoreRecords.authenticatorColumns) FROM authenticators
        WHERE tenant_id = $1 AND verification_method = $2 AND public_key = $3
        """
    /// ``byKey`` holding the row lock in PostgreSQL until the transaction ends.
    static let byKeyLocked: SQL = "\(byKey) \(postgres: "FOR UPDATE")"
    /// The credential the enrolment token's action enrolled, holding the action's row lock in PostgreSQL. The column
    /// is named for authenticators but holds whichever credential the token enrolled: an authenticator's id (push or
    /// QR) or a PowerAuth activation's id (both random UUIDs), so one token enrols one credential of any kind.
    static let enrolledByAction: SQL = """
        SELECT enrolled_authenticator_id FROM actions WHERE tenant_id = $1 AND idempotency_key = $2 \(postgres: "FOR UPDATE")
        """
    static let markEnrolled: SQL = """
        UPDATE actions SET enrolled_authenticator_id = $1 WHERE tenant_id = $2 AND idempotency_key = $3
        """
    /// Everything about a credential that can change after it was enrolled: parameters are ``updateValues(_:)``.
    static let update: SQL = """
        UPDATE authenticators SET verified_at = $1, last_verified_at = $2, is_default = $3, device_platform = $4,
          device_name = $5, push_token = $6, expires_at = $7, errored_at = $8, error_code = $9,
          user_presence_required = $10, user_authentication_required = $11, authentication_timeout = $12,
          authorization_type = $13, signature_scheme = $14, attestation = $15, app_attest_key_id = $16,
          app_attest_public_key = $17, app_attest_counter = $18
        WHERE id = $19 AND tenant_id = $20
        """
    /// Only the renewed columns, so concurrent changes to others are kept. PostgreSQL needs the types of parameters
    /// it sees only beside NULL.
    /// A use of the credential that changes nothing else about it (a QR claim).
    static let stampLastVerified: SQL = "UPDATE authenticators SET last_verified_at = $1 WHERE id = $2 AND tenant_id = $3"
    static let renew: SQL = """
        UPDATE authenticators SET last_verified_at = $1, push_token = COALESCE($2\(postgres: "::text"), push_token),
          expires_at = COALESCE($3\(postgres: "::bigint"), expires_at),
          errored_at = CASE WHEN $2\(postgres: "::text") IS NULL THEN errored_at ELSE NULL END,
          error_code = CASE WHEN $2\(postgres: "::text") IS NULL THEN error_code ELSE NULL END
        WHERE id = $4 AND tenant_id = $5
        RETURNING \(StoreRecords.authenticatorColumns)
        """

    /// Locks the enrolment token's action (PostgreSQL) and returns the credential it already enrolled, if any;
    /// throws ``EnrolmentTokenUsed`` when the action is gone. Every enrolment, whatever its kind, takes this lock
    /// first, so enrolments with one token take turns and each sees what the one before it enrolled.
    static func lockEnrolment(tenantID: String, enrolmentKey: String, in db: some StoreConnection) throws -> String? {
        guard let enrolled = try db.queryOne(enrolledByAction, [.text(tenantID), .text(enrolmentKey)], { $0.optionalString(0) })
        else { throw EnrolmentTokenUsed() }
        return enrolled
    }

    /// Records that the token's action enrolled `credentialID`, after ``lockEnrolment(tenantID:enrolmentKey:in:)``
    /// returned `enrolled`: the same credential again is an idempotent retry, any other is ``EnrolmentTokenUsed``.
    static func claimEnrolment(
        enrolled: String?, credentialID: String, tenantID: String, enrolmentKey: String, in db: some StoreConnection
    ) throws {
        guard enrolled == nil || enrolled == credentialID else { throw EnrolmentTokenUsed() }
        try db.update(markEnrolled, [.text(credentialID), .text(tenantID), .text(enrolmentKey)])
    }

    static func updateValues(_ a: Authenticator) -> [StoreValue] {
        [.optional(a.verifiedAt), .optional(a.lastVerifiedAt), .bool(a.isDefault), .optional(a.devicePlatform),
         .optional(a.deviceName), .optional(a.pushToken), .optional(a.expiresAt), .optional(a.erroredAt),
         .optional(a.errorCode), .bool(a.userPresenceRequired), .bool(a.userAuthenticationRequired),
         .optional(a.authenticationTimeout), .optional(a.authorizationType), .text(a.signatureScheme.rawValue),
         .optional(a.attestation?.json), .optional(a.appAttestKeyID), .optional(a.appAttestPublicKey),
         .optional(a.appAttestCounter), .text(a.id), .text(a.tenantID)]
    }

    // MARK: Attestation

    /// Spends an attestation challenge for its user while it is open: 1 row, or 0 when it is spent, expired, another
    /// user's or unknown.
    static let spendAttestationChallenge: SQL = """
        UPDATE attestation_challenges SET spent_at = $1
        WHERE challenge = $2 AND tenant_id = $3 AND user_id = $4 AND spent_at IS NULL AND expires_at > $1
        """
    /// The credentials (device credentials and PowerAuth activations) an App Attest key id already vouches for.
    static let byAppAttestKey: SQL = """
        SELECT id FROM authenticators WHERE app_attest_key_id = $1
        UNION ALL SELECT id FROM activations WHERE app_attest_key_id = $1
        """

    /// Spends `use` (when given) and checks that the App Attest key id of `record` (when it has one) vouches for no
    /// other credential, inside an enrolment's transaction.
    static func attest(_ record: Authenticator, use: AttestationChallengeUse?, in db: some StoreConnection) throws {
        try attest(id: record.id, tenantID: record.tenantID, appAttestKeyID: record.appAttestKeyID, use: use, in: db)
    }

    /// Spends `use` (when given) and checks that `appAttestKeyID` (when given) vouches for no credential of any kind
    /// but `id`, inside the transaction that enrols credential `id` (a device credential or a PowerAuth activation).
    static func attest(
        id: String, tenantID: String, appAttestKeyID: [UInt8]?, use: AttestationChallengeUse?, in db: some StoreConnection
    ) throws {
        if let use {
            guard try db.update(
                spendAttestationChallenge,
                [.integer(use.at), .text(use.challenge), .text(tenantID), .text(use.userID)]) == 1
            else { throw AttestationChallengeSpent() }
        }
        if let appAttestKeyID {
            let holders = try db.query(byAppAttestKey, [.blob(appAttestKeyID)]) { try $0.string(0) }
            guard holders.allSatisfy({ $0 == id }) else { throw AttestationKeyUsed() }
        }
    }

    // MARK: Nonces

    /// Records a spent nonce; a second spend of its id changes nothing (0 rows), from any instance.
    static let spendNonce: SQL = """
        INSERT INTO nonces (\(StoreRecords.nonceColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (id) DO NOTHING
        """
}

extension SQLStore {
    // MARK: Authenticators

    package func authenticators(tenantID: String, userID: String) async throws -> [Authenticator] {
        try await read { try CredentialQueries.authenticators(tenantID: tenantID, userID: userID, in: $0) }
    }

    package func insertAuthenticator(_ authenticator: Authenticator, audit: AuditAppend?) async throws {
        try await write { db in
            try UserQueries.ensureUser(
                tenantID: authenticator.tenantID, userID: authenticator.userID, now: authenticator.createdAt, in: db)
            try db.update(CredentialQueries.insert, StoreRecords.authenticatorValues(authenticator))
            if let audit { try AuditQueries.append(audit, on: db) }
        }
    }

    package func deleteAuthenticator(
        tenantID: String, userID: String, id: String, audit: AuditAppend?,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await write { db in
            guard let deleted = try db.queryOne(
                CredentialQueries.delete, [.text(tenantID), .text(userID), .text(id)], StoreRecords.authenticator)
            else { return false }
            try WebhookQueries.enqueue(events(deleted), in: db)
            if let audit { try AuditQueries.append(audit, on: db) }
            return true
        }
    }

    // MARK: Device credentials

    package func removeDeviceCredential(
        tenantID: String, userID: String, id: String, spending signatures: [[UInt8]], keepUntil: Int64,
        audit: AuditAppend?, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> CredentialRemoval {
        do {
            return try await write { db in
                // Spent first, in the caller's order: of two removals with one signature at once (the key's push and
                // QR credentials, or its credentials in two tenants), the second waits on the first's row and then
                // finds it taken.
                for signature in signatures {
                    guard try db.update(CredentialQueries.spendSignature, [.blob(signature), .integer(keepUntil)]) == 1
                    else { throw CredentialQueries.SignatureSpent() }  // rolls back the digests recorded before it
                }
                guard let deleted = try db.queryOne(
                    CredentialQueries.delete, [.text(tenantID), .text(userID), .text(id)], StoreRecords.authenticator)
                else { throw CredentialQueries.NothingRemoved() }  // rolls the spent signature back
                try WebhookQueries.enqueue(events(deleted), in: db)
                if let audit { try AuditQueries.append(audit, on: db) }
                return .removed
            }
        } catch is CredentialQueries.NothingRemoved {
            return .notFound
        } catch is CredentialQueries.SignatureSpent {
            return .signatureSpent
        }
    }

    package func authenticator(tenantID: String, method: VerificationMethod, publicKey: [UInt8]) async throws -> Authenticator? {
        try await read { db in
            try db.queryOne(
                CredentialQueries.byKey, [.text(tenantID), .text(method.rawValue), .blob(publicKey)],
                StoreRecords.authenticator)
        }
    }

    package func enrollDeviceCredential(
        _ candidate: Authenticator, enrolmentKey: String, attestation: AttestationChallengeUse?,
        reenrol: @escaping @Sendable (inout Authenticator) -> Void,
        audit: @escaping @Sendable (Authenticator) -> AuditAppend?,
        events: @escaping @Sendable (Authenticator, Bool) -> [WebhookEvent]
    ) async throws -> DeviceCredentialEnrolment {
        try await write { db -> DeviceCredentialEnrolment in
            // The enrolment token's action row is locked first (PostgreSQL): two enrolments with one token take
            // turns, and the second sees which credential (of any kind) the first enrolled.
            let enrolled = try CredentialQueries.lockEnrolment(
                tenantID: candidate.tenantID, enrolmentKey: enrolmentKey, in: db)
            /// The token's action enrols one key (again, idempotently, but never a second one).
            func claimEnrolment(_ authenticatorID: String) throws {
                try CredentialQueries.claimEnrolment(
                    enrolled: enrolled, credentialID: authenticatorID, tenantID: candidate.tenantID,
                    enrolmentKey: enrolmentKey, in: db)
            }
            let existing = try db.queryOne(
                CredentialQueries.byKeyLocked,
                [.text(candidate.tenantID), .text(candidate.verificationMethod.rawValue), .optional(candidate.publicKey)],
                StoreRecords.authenticator)
            if var stored = existing {
                guard stored.userID == candidate.userID else {
                    throw StoreError(.constraintViolation, "the key is enrolled for another user")
                }
                reenrol(&stored)
                try CredentialQueries.attest(stored, use: attestation, in: db)
                try db.update(CredentialQueries.update, CredentialQueries.updateValues(stored))
                try claimEnrolment(stored.id)
                try WebhookQueries.enqueue(events(stored, false), in: db)
                if let entry = audit(stored) { try AuditQueries.append(entry, on: db) }
                return DeviceCredentialEnrolment(authenticator: stored, created: false)
            }
            try claimEnrolment(candidate.id)
            try CredentialQueries.attest(candidate, use: attestation, in: db)
            // The same key enrolled through another token at the same moment (another PostgreSQL instance): its
            // insert wins the unique index, this one starts over and finds it.
            try UserQueries.ensureUser(tenantID: candidate.tenantID, userID: candidate.userID, now: candidate.createdAt, in: db)
            guard try db.update(CredentialQueries.insertUnlessTaken, StoreRecords.authenticatorValues(candidate)) == 1 else {
                throw StoreRetry()
            }
            try WebhookQueries.enqueue(events(candidate, true), in: db)
            if let entry = audit(candidate) { try AuditQueries.append(entry, on: db) }
            return DeviceCredentialEnrolment(authenticator: candidate, created: true)
        }
    }

    package func renewDeviceCredential(
        tenantID: String, id: String, pushToken: String?, expiresAt: Int64?, at: Int64,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Authenticator? {
        try await write { db in
            guard let renewed = try db.queryOne(
                CredentialQueries.renew,
                [.integer(at), .optional(pushToken), .optional(expiresAt), .text(id), .text(tenantID)],
                StoreRecords.authenticator)
            else { return nil }
            try WebhookQueries.enqueue(events(renewed), in: db)
            return renewed
        }
    }

    // MARK: Nonces

    package func spendNonce(_ nonce: Nonce) async throws -> Bool {
        try await writeOne { db in
            try db.update(
                CredentialQueries.spendNonce,
                [.text(nonce.id), .text(nonce.tenantID), .text(nonce.authenticatorID), .text(nonce.purpose.rawValue),
                 .text(nonce.message), .integer(nonce.createdAt), .integer(nonce.expiresAt),
                 .integer(nonce.usedAt ?? nonce.createdAt)]) == 1
        }
    }
}
