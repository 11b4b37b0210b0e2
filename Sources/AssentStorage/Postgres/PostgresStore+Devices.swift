import AssentServerCore
import AssentWire
import Foundation

extension PostgresStore {
    // MARK: Device credentials

    package func authenticator(tenantID: String, method: VerificationMethod, publicKey: [UInt8]) async throws -> Authenticator? {
        try await read { db in
            try db.queryOne(
                """
                SELECT \(Self.authenticatorColumns) FROM authenticators
                WHERE tenant_id = $1 AND verification_method = $2 AND public_key = $3
                """,
                [.text(tenantID), .text(method.rawValue), .blob(publicKey)], StoreRecords.authenticator)
        }
    }

    package func enrollDeviceCredential(
        _ candidate: Authenticator, enrolmentKey: String,
        reenrol: @escaping @Sendable (inout Authenticator) -> Void,
        events: @escaping @Sendable (Authenticator, Bool) -> [WebhookEvent]
    ) async throws -> (Authenticator, created: Bool) {
        let result = try await write { db -> EnrolResult in
            // The enrolment token's action row is locked first: two enrolments with one token take turns, and the
            // second sees which key the first enrolled.
            guard let enrolled = try db.queryOne(
                "SELECT enrolled_authenticator_id FROM actions WHERE tenant_id = $1 AND idempotency_key = $2 FOR UPDATE",
                [.text(candidate.tenantID), .text(enrolmentKey)], { $0.optionalString(0) })
            else { throw EnrolmentTokenUsed() }
            func claimEnrolment(_ authenticatorID: String) throws {
                guard enrolled == nil || enrolled == authenticatorID else { throw EnrolmentTokenUsed() }
                try db.update(
                    "UPDATE actions SET enrolled_authenticator_id = $1 WHERE tenant_id = $2 AND idempotency_key = $3",
                    [.text(authenticatorID), .text(candidate.tenantID), .text(enrolmentKey)])
            }
            let existing = try db.queryOne(
                """
                SELECT \(Self.authenticatorColumns) FROM authenticators
                WHERE tenant_id = $1 AND verification_method = $2 AND public_key = $3 FOR UPDATE
                """,
                [.text(candidate.tenantID), .text(candidate.verificationMethod.rawValue), .optional(candidate.publicKey)],
                StoreRecords.authenticator)
            if var stored = existing {
                guard stored.userID == candidate.userID else {
                    throw StoreError(.constraintViolation, "the key is enrolled for another user")
                }
                reenrol(&stored)
                try Self.updateAuthenticator(stored, in: db)
                try claimEnrolment(stored.id)
                try Self.enqueue(events(stored, false), in: db)
                return EnrolResult(authenticator: stored, created: false)
            }
            try claimEnrolment(candidate.id)
            // The same key enrolled through another token at the same moment: its insert wins the unique index,
            // this one starts over and finds it.
            try Self.ensureUser(tenantID: candidate.tenantID, userID: candidate.userID, now: candidate.createdAt, in: db)
            let inserted = try db.update(
                """
                INSERT INTO authenticators (\(Self.authenticatorColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
                ON CONFLICT DO NOTHING
                """,
                Self.authenticatorValues(candidate))
            guard inserted == 1 else { throw PostgresRetry() }
            try Self.enqueue(events(candidate, true), in: db)
            return EnrolResult(authenticator: candidate, created: true)
        }
        return (result.authenticator, result.created)
    }

    private struct EnrolResult: Sendable {
        var authenticator: Authenticator
        var created: Bool
    }

    @discardableResult
    static func updateAuthenticator(_ a: Authenticator, in db: PostgresConnection) throws -> Bool {
        try db.update(
            """
            UPDATE authenticators SET verified_at = $1, last_verified_at = $2, is_default = $3, device_platform = $4,
              device_name = $5, push_token = $6, expires_at = $7, errored_at = $8, error_code = $9,
              user_presence_required = $10, user_authentication_required = $11, authentication_timeout = $12,
              authorization_type = $13
            WHERE id = $14 AND tenant_id = $15
            """,
            [.optional(a.verifiedAt), .optional(a.lastVerifiedAt), .bool(a.isDefault), .optional(a.devicePlatform),
             .optional(a.deviceName), .optional(a.pushToken), .optional(a.expiresAt), .optional(a.erroredAt),
             .optional(a.errorCode), .bool(a.userPresenceRequired), .bool(a.userAuthenticationRequired),
             .optional(a.authenticationTimeout.map(Int64.init)), .optional(a.authorizationType), .text(a.id),
             .text(a.tenantID)]) == 1
    }

    package func renewDeviceCredential(
        tenantID: String, id: String, pushToken: String?, expiresAt: Int64?, at: Int64,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Authenticator? {
        try await write { db in
            guard let renewed = try db.queryOne(
                """
                UPDATE authenticators SET last_verified_at = $1, push_token = COALESCE($2::text, push_token),
                  expires_at = COALESCE($3::bigint, expires_at),
                  errored_at = CASE WHEN $2::text IS NULL THEN errored_at ELSE NULL END,
                  error_code = CASE WHEN $2::text IS NULL THEN error_code ELSE NULL END
                WHERE id = $4 AND tenant_id = $5
                RETURNING \(Self.authenticatorColumns)
                """,
                [.integer(at), .optional(pushToken), .optional(expiresAt), .text(id), .text(tenantID)], StoreRecords.authenticator)
            else { return nil }
            try Self.enqueue(events(renewed), in: db)
            return renewed
        }
    }

    // MARK: Nonces

    static let nonceColumns = SQLiteStore.nonceColumns

    package func insertNonce(_ nonce: Nonce) async throws {
        try await write { db in
            try db.update(
                "DELETE FROM nonces WHERE authenticator_id = $1 AND purpose = $2 AND (used_at IS NOT NULL OR expires_at <= $3)",
                [.text(nonce.authenticatorID), .text(nonce.purpose.rawValue), .integer(nonce.createdAt)])
            try db.update(
                "INSERT INTO nonces (\(Self.nonceColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)",
                [.text(nonce.id), .text(nonce.tenantID), .text(nonce.authenticatorID), .text(nonce.purpose.rawValue),
                 .text(nonce.message), .integer(nonce.createdAt), .integer(nonce.expiresAt)])
            // At most `maxOpenNonces` per authenticator and purpose: the oldest make way.
            try db.update(
                """
                DELETE FROM nonces WHERE authenticator_id = $1 AND purpose = $2 AND id NOT IN (
                  SELECT id FROM nonces WHERE authenticator_id = $1 AND purpose = $2 ORDER BY created_at DESC LIMIT $3)
                """,
                [.text(nonce.authenticatorID), .text(nonce.purpose.rawValue), .integer(Int64(SQLiteStore.maxOpenNonces))])
        }
    }

    package func openNonces(authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> [Nonce] {
        try await read { db in
            try db.query(
                """
                SELECT \(Self.nonceColumns) FROM nonces
                WHERE authenticator_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
                ORDER BY created_at DESC LIMIT 8
                """,
                [.text(authenticatorID), .text(purpose.rawValue), .integer(now)], StoreRecords.nonce)
        }
    }

    package func openNonce(id: String, authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> Nonce? {
        try await read { db in
            try db.queryOne(
                """
                SELECT \(Self.nonceColumns) FROM nonces
                WHERE id = $1 AND authenticator_id = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $4
                """,
                [.text(id), .text(authenticatorID), .text(purpose.rawValue), .integer(now)], StoreRecords.nonce)
        }
    }

    package func consumeNonce(id: String, authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> Nonce? {
        // Conditional update: concurrent consumers serialise on the row lock and only the first finds it unused.
        try await writeOne { db in
            try db.queryOne(
                """
                UPDATE nonces SET used_at = $1
                WHERE id = $2 AND authenticator_id = $3 AND purpose = $4 AND used_at IS NULL AND expires_at > $1
                RETURNING \(Self.nonceColumns)
                """,
                [.integer(now), .text(id), .text(authenticatorID), .text(purpose.rawValue)], StoreRecords.nonce)
        }
    }

    // MARK: Challenges

    static let challengeColumns = SQLiteStore.challengeColumns

    /// A challenge's ``challengeColumns`` values, `$1`…`$18` in that order.
    static func challengeValues(_ c: Challenge) -> [PostgresValue] {
        [.text(c.id), .text(c.tenantID), .text(c.kind.rawValue), .optional(c.userID), .optional(c.actionCode),
         .optional(c.idempotencyKey), .optional(c.targetAuthenticatorID), .text(c.state.rawValue),
         .integer(c.createdAt), .integer(c.expiresAt), .optional(c.answeredAt), .optional(c.answeredBy),
         .optional(c.verificationCode), .optional(c.ipAddress), .optional(c.userAgent), .optional(c.deviceID),
         Self.encodeCustom(c.custom), .optional(c.deviceCodeHash)]
    }

    /// Takes the transaction-scoped advisory lock that concurrent challenge starts for one user (from any instance)
    /// take turns on, so a pending-cap count made after it cannot be passed.
    static func lockChallengeCap(tenantID: String, userID: String, in db: PostgresConnection) throws {
        try db.update("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text("challenge-cap:\(tenantID):\(userID)")])
    }

    package func insertChallenge(_ c: Challenge, maxOpenForUser: Int?) async throws -> Bool {
        let values = Self.challengeValues(c)
        guard let maxOpenForUser, let user = c.userID else {
            return try await writeOne { db in
                try db.update(
                    """
                    INSERT INTO challenges (\(Self.challengeColumns))
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
                    """,
                    values) == 1
            }
        }
        return try await write { db in
            // Concurrent starts for one user (from any instance) take turns on a transaction-scoped advisory lock,
            // so the count in the insert that follows (its snapshot is taken after the lock) cannot be passed.
            try Self.lockChallengeCap(tenantID: c.tenantID, userID: user, in: db)
            return try db.update(
                """
                INSERT INTO challenges (\(Self.challengeColumns))
                SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9::bigint, $10::bigint, $11::bigint, $12, $13, $14, $15, $16,
                  $17, $18::bytea
                WHERE (SELECT COUNT(*) FROM challenges WHERE tenant_id = $2 AND user_id = $4 AND kind = $3
                       AND state IN ('pending', 'claimed') AND expires_at > $9::bigint) < $19::bigint
                """,
                values + [.integer(Int64(maxOpenForUser))]) == 1
        }
    }

    package func challenge(tenantID: String, id: String) async throws -> Challenge? {
        try await read { db in
            try db.queryOne(
                "SELECT \(Self.challengeColumns) FROM challenges WHERE id = $1 AND tenant_id = $2",
                [.text(id), .text(tenantID)], StoreRecords.challenge)
        }
    }

    package func pendingPushChallenge(
        tenantID: String, userID: String, authenticatorID: String, now: Int64
    ) async throws -> Challenge? {
        try await read { db in
            try db.queryOne(
                """
                SELECT \(Self.challengeColumns) FROM challenges
                WHERE tenant_id = $1 AND user_id = $2 AND kind = 'push' AND state = 'pending' AND expires_at > $3
                  AND (target_authenticator_id IS NULL OR target_authenticator_id = $4)
                ORDER BY created_at DESC, id LIMIT 1
                """,
                [.text(tenantID), .text(userID), .integer(now), .text(authenticatorID)], StoreRecords.challenge)
        }
    }

    package func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64
    ) async throws -> Challenge? {
        let state: Challenge.State = approved ? .approved : .denied
        let states = "{" + from.map(\.rawValue).joined(separator: ",") + "}"
        // One statement (one round trip) does it all: a conditional update of the challenge — two answers from any
        // instances serialise on its row lock, and the second re-checks the state against the committed row and
        // changes nothing — then, only if it moved, its action (only while that still waits for a challenge: one the
        // backend blocked, or that already failed, never becomes a success), the authenticator's last verification,
        // then the announcement to the other instances, once committed.
        return try await writeAndAnnounce { db -> Challenge? in
            try db.queryOne(
                """
                WITH c AS (
                  UPDATE challenges SET state = $1, answered_at = $2, answered_by = $3
                  WHERE id = $4 AND tenant_id = $5 AND state = ANY($6::text[]) AND expires_at > $2
                    AND (state = 'pending' OR answered_by = $3)
                    AND EXISTS (SELECT 1 FROM authenticators WHERE id = $3 AND tenant_id = $5
                                AND (expires_at IS NULL OR expires_at > $2))
                  RETURNING \(Self.challengeColumns)),
                a AS (
                  UPDATE actions SET state = $7, verification_method = $8, state_updated_at = $2
                  FROM c WHERE actions.tenant_id = c.tenant_id AND actions.idempotency_key = c.idempotency_key
                    AND actions.state = 'CHALLENGE_REQUIRED'
                  RETURNING 1),
                u AS (
                  UPDATE authenticators SET last_verified_at = $2
                  WHERE id = $3 AND tenant_id = $5 AND EXISTS (SELECT 1 FROM c)
                  RETURNING 1)
                SELECT c.*, (SELECT COUNT(*) FROM a), (SELECT COUNT(*) FROM u) FROM c
                """,
                [.text(state.rawValue), .integer(now), .text(authenticatorID), .text(id), .text(tenantID),
                 .text(states),
                 .text(approved ? ActionState.challengeSucceeded.rawValue : ActionState.challengeFailed.rawValue),
                 .text(verificationMethod.rawValue)]
            ) { row in
                let challenge = try StoreRecords.challenge(row)
                if challenge.idempotencyKey != nil, row.int64(18) != 1 {
                    // The whole answer is undone (the transaction rolls back; nothing is announced).
                    throw StoreError(.constraintViolation, "the action is no longer waiting for a challenge")
                }
                return challenge
            }
        }
    }

    package func claimChallenge(
        tenantID: String, id: String, authenticator: Authenticator, anonymousAction: Action?, now: Int64
    ) async throws -> Challenge? {
        try await writeAndAnnounce { db in
            // Compare-and-set on the row: of any number of devices racing through any instances, the first to take
            // the row lock moves it to `claimed`; the others re-check `state = 'pending'` and change nothing.
            guard let claimed = try db.queryOne(
                """
                UPDATE challenges SET state = 'claimed', answered_by = $1, user_id = COALESCE(user_id, $2),
                  action_code = COALESCE(action_code, $3), idempotency_key = COALESCE(idempotency_key, $4)
                WHERE id = $5 AND tenant_id = $6 AND kind = 'qr' AND state = 'pending' AND expires_at > $7
                  AND (user_id IS NULL OR user_id = $2)
                RETURNING \(Self.challengeColumns)
                """,
                [.text(authenticator.id), .text(authenticator.userID), .optional(anonymousAction?.actionCode),
                 .optional(anonymousAction?.idempotencyKey), .text(id), .text(tenantID), .integer(now)], StoreRecords.challenge)
            else { return nil }
            if let action = anonymousAction, claimed.idempotencyKey == action.idempotencyKey {
                try Self.ensureUser(tenantID: tenantID, userID: action.userID, now: now, in: db)
                try Self.insertAction(action, in: db)
            }
            return claimed
        }
    }

    package func sweep(now: Int64, challengesBefore: Int64, eventsBefore: Int64) async throws -> Int {
        // Plain deletes of rows no one can use any more: running on every instance at once is harmless.
        try await write { db in
            try db.update("DELETE FROM challenges WHERE expires_at < $1", [.integer(challengesBefore)])
                + db.update("DELETE FROM nonces WHERE expires_at < $1", [.integer(now)])
                + db.update(
                    "DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < $1", [.integer(eventsBefore)])
        }
    }

    // MARK: Webhook outbox

    static func enqueue(_ events: [WebhookEvent], in db: PostgresConnection) throws {
        for event in events {
            try db.update(
                """
                INSERT INTO webhook_outbox (id, tenant_id, type, body, created_at, next_attempt_at, attempts)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """,
                [.text(event.id), .text(event.tenantID), .text(event.type), .text(event.body),
                 .integer(event.createdAt), .integer(event.nextAttemptAt), .integer(Int64(event.attempts))])
        }
    }

    package func dueWebhookEvents(now: Int64, limit: Int) async throws -> [WebhookEvent] {
        // Claims due events for this instance: rows another instance is claiming are skipped, and each claimed one
        // is leased (its next attempt moved `webhookLease` ahead), so no other instance takes it while it is being
        // delivered — and if this instance dies, it is tried again once the lease runs out.
        try await writeOne { db in
            try db.query(
                """
                UPDATE webhook_outbox SET next_attempt_at = $1::bigint + $3::bigint
                WHERE id IN (
                  SELECT id FROM webhook_outbox
                  WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
                  ORDER BY next_attempt_at, created_at LIMIT $2
                  FOR UPDATE SKIP LOCKED)
                RETURNING id, tenant_id, type, body, created_at, next_attempt_at, attempts
                """,
                [.integer(now), .integer(Int64(limit)), .integer(Self.webhookLease)]
            ) { row in
                var event = WebhookEvent(
                    id: try row.string(0), tenantID: try row.string(1), type: try row.string(2),
                    body: try row.string(3), createdAt: row.int64(4))
                event.nextAttemptAt = row.int64(5)
                event.attempts = Int(row.int64(6))
                return event
            }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }

    package func markWebhookDelivered(id: String, at: Int64) async throws {
        try await writeOne { db in
            try db.update(
                "UPDATE webhook_outbox SET delivered_at = $1, attempts = attempts + 1 WHERE id = $2",
                [.integer(at), .text(id)])
        }
    }

    package func markWebhookAttemptFailed(
        id: String, attempts: Int, nextAttemptAt: Int64?, error: String, at: Int64
    ) async throws {
        try await writeOne { db in
            try db.update(
                """
                UPDATE webhook_outbox SET attempts = $1, next_attempt_at = COALESCE($2::bigint, next_attempt_at),
                  failed_at = CASE WHEN $2::bigint IS NULL THEN $3::bigint ELSE NULL END, last_error = $4
                WHERE id = $5
                """,
                [.integer(Int64(attempts)), .optional(nextAttemptAt), .integer(at), .text(String(error.prefix(500))),
                 .text(id)])
        }
    }
}
