import AssentServerCore
import AssentWire
import Foundation

extension SQLiteStore {
    // MARK: Device credentials

    package func authenticator(tenantID: String, method: VerificationMethod, publicKey: [UInt8]) async throws -> Authenticator? {
        try read { db in
            try db.queryOne(
                """
                SELECT \(Self.authenticatorColumns) FROM authenticators
                WHERE tenant_id = ? AND verification_method = ? AND public_key = ?
                """,
                [.text(tenantID), .text(method.rawValue), .blob(publicKey)], StoreRecords.authenticator)
        }
    }

    package func enrollDeviceCredential(
        _ candidate: Authenticator, enrolmentKey: String,
        reenrol: @escaping @Sendable (inout Authenticator) -> Void,
        events: @escaping @Sendable (Authenticator, Bool) -> [WebhookEvent]
    ) async throws -> (Authenticator, created: Bool) {
        try await writer.write { db in
            /// The token's action enrols one key (again, idempotently, but never a second one).
            func claimEnrolment(_ authenticatorID: String) throws {
                let claimed = try db.run(
                    """
                    UPDATE actions SET enrolled_authenticator_id = ?
                    WHERE tenant_id = ? AND idempotency_key = ?
                      AND (enrolled_authenticator_id IS NULL OR enrolled_authenticator_id = ?)
                    """,
                    [.text(authenticatorID), .text(candidate.tenantID), .text(enrolmentKey), .text(authenticatorID)])
                guard claimed == 1 else { throw EnrolmentTokenUsed() }
            }
            let existing = try db.queryOne(
                """
                SELECT \(Self.authenticatorColumns) FROM authenticators
                WHERE tenant_id = ? AND verification_method = ? AND public_key = ?
                """,
                [.text(candidate.tenantID), .text(candidate.verificationMethod.rawValue),
                 candidate.publicKey.map(SQLiteValue.blob) ?? .null], StoreRecords.authenticator)
            if var stored = existing {
                guard stored.userID == candidate.userID else {
                    throw StoreError(.constraintViolation, "the key is enrolled for another user")
                }
                reenrol(&stored)
                _ = try Self.updateAuthenticator(stored, in: db)
                try claimEnrolment(stored.id)
                try Self.enqueue(events(stored, false), in: db)
                return (stored, false)
            }
            try Self.insertAuthenticator(candidate, in: db)
            try claimEnrolment(candidate.id)
            try Self.enqueue(events(candidate, true), in: db)
            return (candidate, true)
        }
    }

    static func updateAuthenticator(_ a: Authenticator, in db: SQLiteConnection) throws -> Bool {
        try db.run(
            """
            UPDATE authenticators SET verified_at = ?, last_verified_at = ?, is_default = ?, device_platform = ?,
              device_name = ?, push_token = ?, expires_at = ?, errored_at = ?, error_code = ?,
              user_presence_required = ?, user_authentication_required = ?, authentication_timeout = ?,
              authorization_type = ?
            WHERE id = ? AND tenant_id = ?
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
        try await writer.write { db in
            let changed = try db.run(
                """
                UPDATE authenticators SET last_verified_at = ?, push_token = COALESCE(?, push_token),
                  expires_at = COALESCE(?, expires_at),
                  errored_at = CASE WHEN ? IS NULL THEN errored_at ELSE NULL END,
                  error_code = CASE WHEN ? IS NULL THEN error_code ELSE NULL END
                WHERE id = ? AND tenant_id = ?
                """,
                [.integer(at), .optional(pushToken), .optional(expiresAt), .optional(pushToken), .optional(pushToken),
                 .text(id), .text(tenantID)])
            guard changed == 1,
                  let renewed = try db.queryOne(
                      "SELECT \(Self.authenticatorColumns) FROM authenticators WHERE id = ?", [.text(id)], StoreRecords.authenticator)
            else { return nil }
            try Self.enqueue(events(renewed), in: db)
            return renewed
        }
    }

    // MARK: Nonces

    static let nonceColumns = "id, tenant_id, authenticator_id, purpose, message, created_at, expires_at, used_at"

    package func insertNonce(_ nonce: Nonce) async throws {
        try await writer.write { db in
            try db.run(
                """
                DELETE FROM nonces WHERE authenticator_id = ? AND purpose = ? AND (used_at IS NOT NULL OR expires_at <= ?)
                """,
                [.text(nonce.authenticatorID), .text(nonce.purpose.rawValue), .integer(nonce.createdAt)])
            try db.run(
                "INSERT INTO nonces (\(Self.nonceColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                [.text(nonce.id), .text(nonce.tenantID), .text(nonce.authenticatorID), .text(nonce.purpose.rawValue),
                 .text(nonce.message), .integer(nonce.createdAt), .integer(nonce.expiresAt)])
            // At most `maxOpenNonces` per authenticator and purpose: the oldest make way.
            try db.run(
                """
                DELETE FROM nonces WHERE authenticator_id = ? AND purpose = ? AND id NOT IN (
                  SELECT id FROM nonces WHERE authenticator_id = ? AND purpose = ? ORDER BY created_at DESC LIMIT ?)
                """,
                [.text(nonce.authenticatorID), .text(nonce.purpose.rawValue), .text(nonce.authenticatorID),
                 .text(nonce.purpose.rawValue), .integer(Int64(Self.maxOpenNonces))])
        }
    }

    package func openNonces(authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> [Nonce] {
        try read { db in
            try db.query(
                """
                SELECT \(Self.nonceColumns) FROM nonces
                WHERE authenticator_id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
                ORDER BY created_at DESC LIMIT 8
                """,
                [.text(authenticatorID), .text(purpose.rawValue), .integer(now)], StoreRecords.nonce)
        }
    }

    /// Open nonces kept per authenticator and purpose.
    static let maxOpenNonces = 8

    package func openNonce(id: String, authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> Nonce? {
        try read { db in
            try db.queryOne(
                """
                SELECT \(Self.nonceColumns) FROM nonces
                WHERE id = ? AND authenticator_id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
                """,
                [.text(id), .text(authenticatorID), .text(purpose.rawValue), .integer(now)], StoreRecords.nonce)
        }
    }

    package func consumeNonce(id: String, authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> Nonce? {
        try await writer.write { db in
            let changed = try db.run(
                """
                UPDATE nonces SET used_at = ?
                WHERE id = ? AND authenticator_id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
                """,
                [.integer(now), .text(id), .text(authenticatorID), .text(purpose.rawValue), .integer(now)])
            guard changed == 1 else { return nil }
            return try db.queryOne("SELECT \(Self.nonceColumns) FROM nonces WHERE id = ?", [.text(id)], StoreRecords.nonce)
        }
    }

    // MARK: Challenges

    static let challengeColumns = """
        id, tenant_id, kind, user_id, action_code, idempotency_key, target_authenticator_id, state, created_at, \
        expires_at, answered_at, answered_by, verification_code, ip_address, user_agent, device_id, custom, \
        device_code_hash
        """

    package func insertChallenge(_ c: Challenge, maxOpenForUser: Int?) async throws -> Bool {
        try await writer.write { db in try Self.insertChallenge(c, maxOpenForUser: maxOpenForUser, in: db) }
    }

    /// Inserts `c` unless its user has `maxOpenForUser` open challenges of its kind; false when refused.
    static func insertChallenge(_ c: Challenge, maxOpenForUser: Int?, in db: SQLiteConnection) throws -> Bool {
        if let maxOpenForUser, let user = c.userID {
            let open = try db.queryOne(
                """
                SELECT COUNT(*) FROM challenges WHERE tenant_id = ? AND user_id = ? AND kind = ?
                  AND state IN ('pending', 'claimed') AND expires_at > ?
                """,
                [.text(c.tenantID), .text(user), .text(c.kind.rawValue), .integer(c.createdAt)]) { Int($0.int64(0)) } ?? 0
            guard open < maxOpenForUser else { return false }
        }
        try db.run(
            "INSERT INTO challenges (\(Self.challengeColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [.text(c.id), .text(c.tenantID), .text(c.kind.rawValue), .optional(c.userID), .optional(c.actionCode),
             .optional(c.idempotencyKey), .optional(c.targetAuthenticatorID), .text(c.state.rawValue),
             .integer(c.createdAt), .integer(c.expiresAt), .optional(c.answeredAt), .optional(c.answeredBy),
             .optional(c.verificationCode), .optional(c.ipAddress), .optional(c.userAgent), .optional(c.deviceID),
             Self.encodeCustom(c.custom), c.deviceCodeHash.map(SQLiteValue.blob) ?? .null])
        return true
    }

    package func challenge(tenantID: String, id: String) async throws -> Challenge? {
        try read { db in
            try db.queryOne(
                "SELECT \(Self.challengeColumns) FROM challenges WHERE id = ? AND tenant_id = ?",
                [.text(id), .text(tenantID)], StoreRecords.challenge)
        }
    }

    package func pendingPushChallenge(
        tenantID: String, userID: String, authenticatorID: String, now: Int64
    ) async throws -> Challenge? {
        try read { db in
            try db.queryOne(
                """
                SELECT \(Self.challengeColumns) FROM challenges
                WHERE tenant_id = ? AND user_id = ? AND kind = 'push' AND state = 'pending' AND expires_at > ?
                  AND (target_authenticator_id IS NULL OR target_authenticator_id = ?)
                ORDER BY created_at DESC, id LIMIT 1
                """,
                [.text(tenantID), .text(userID), .integer(now), .text(authenticatorID)], StoreRecords.challenge)
        }
    }

    package func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64
    ) async throws -> Challenge? {
        try await writer.write { db in
            let states = from.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            let changed = try db.run(
                """
                UPDATE challenges SET state = ?, answered_at = ?, answered_by = ?
                WHERE id = ? AND tenant_id = ? AND state IN (\(states)) AND expires_at > ?
                  AND (state = 'pending' OR answered_by = ?)
                  AND EXISTS (SELECT 1 FROM authenticators WHERE id = ? AND tenant_id = ?
                              AND (expires_at IS NULL OR expires_at > ?))
                """,
                [.text(approved ? "approved" : "denied"), .integer(now), .text(authenticatorID), .text(id),
                 .text(tenantID), .integer(now), .text(authenticatorID), .text(authenticatorID), .text(tenantID),
                 .integer(now)])
            guard changed == 1,
                  let challenge = try db.queryOne(
                      "SELECT \(Self.challengeColumns) FROM challenges WHERE id = ?", [.text(id)], StoreRecords.challenge)
            else { return nil }
            if let key = challenge.idempotencyKey {
                // Only an action still waiting for its challenge moves: one the backend blocked (or that already
                // failed) is never turned into a success by a late approval. The whole answer is then undone.
                let moved = try db.run(
                    """
                    UPDATE actions SET state = ?, verification_method = ?, state_updated_at = ?
                    WHERE tenant_id = ? AND idempotency_key = ? AND state = 'CHALLENGE_REQUIRED'
                    """,
                    [.text(approved ? ActionState.challengeSucceeded.rawValue : ActionState.challengeFailed.rawValue),
                     .text(verificationMethod.rawValue), .integer(now), .text(tenantID), .text(key)])
                guard moved == 1 else {
                    throw StoreError(.constraintViolation, "the action is no longer waiting for a challenge")
                }
            }
            try db.run(
                "UPDATE authenticators SET last_verified_at = ? WHERE id = ? AND tenant_id = ?",
                [.integer(now), .text(authenticatorID), .text(tenantID)])
            return challenge
        }
    }

    package func claimChallenge(
        tenantID: String, id: String, authenticator: Authenticator, anonymousAction: Action?, now: Int64
    ) async throws -> Challenge? {
        try await writer.write { db in
            let changed = try db.run(
                """
                UPDATE challenges SET state = 'claimed', answered_by = ?, user_id = COALESCE(user_id, ?),
                  action_code = COALESCE(action_code, ?), idempotency_key = COALESCE(idempotency_key, ?)
                WHERE id = ? AND tenant_id = ? AND kind = 'qr' AND state = 'pending' AND expires_at > ?
                  AND (user_id IS NULL OR user_id = ?)
                """,
                [.text(authenticator.id), .text(authenticator.userID), .optional(anonymousAction?.actionCode),
                 .optional(anonymousAction?.idempotencyKey), .text(id), .text(tenantID), .integer(now),
                 .text(authenticator.userID)])
            guard changed == 1,
                  let claimed = try db.queryOne(
                      "SELECT \(Self.challengeColumns) FROM challenges WHERE id = ?", [.text(id)], StoreRecords.challenge)
            else { return nil }
            if let action = anonymousAction, claimed.idempotencyKey == action.idempotencyKey {
                if try Self.user(tenantID: tenantID, userID: action.userID, in: db) == nil {
                    try Self.saveUser(User(tenantID: tenantID, userID: action.userID, now: now), in: db)
                }
                try Self.insertAction(action, in: db)
            }
            return claimed
        }
    }

    package func sweep(now: Int64, challengesBefore: Int64, eventsBefore: Int64) async throws -> Int {
        try await writer.write { db in
            try db.run("DELETE FROM challenges WHERE expires_at < ?", [.integer(challengesBefore)])
                + db.run("DELETE FROM nonces WHERE expires_at < ?", [.integer(now)])
                + db.run(
                    "DELETE FROM webhook_outbox WHERE COALESCE(delivered_at, failed_at) < ?", [.integer(eventsBefore)])
        }
    }

    // MARK: Webhook outbox

    static func enqueue(_ events: [WebhookEvent], in db: SQLiteConnection) throws {
        for event in events {
            try db.run(
                """
                INSERT INTO webhook_outbox (id, tenant_id, type, body, created_at, next_attempt_at, attempts)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(event.id), .text(event.tenantID), .text(event.type), .text(event.body),
                 .integer(event.createdAt), .integer(event.nextAttemptAt), .integer(Int64(event.attempts))])
        }
    }

    /// How long a claimed webhook event is held before it may be handed out again (its delivery outlives the
    /// request timeout by far; an instance that dies mid-delivery leaves it to be retried after this).
    static let webhookLease: Int64 = 20_000

    package func dueWebhookEvents(now: Int64, limit: Int) async throws -> [WebhookEvent] {
        // Claimed through the single writer: each due event is leased (its next attempt moved ahead) in the same
        // statement that hands it out, so two dispatchers — or two processes on the file — never get the same one.
        try await writer.write { db in
            try db.query(
                """
                UPDATE webhook_outbox SET next_attempt_at = ? + ?
                WHERE id IN (
                  SELECT id FROM webhook_outbox
                  WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?
                  ORDER BY next_attempt_at, created_at LIMIT ?)
                RETURNING id, tenant_id, type, body, created_at, next_attempt_at, attempts
                """,
                [.integer(now), .integer(Self.webhookLease), .integer(now), .integer(Int64(limit))]
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
        _ = try await writer.write { db in
            try db.run(
                "UPDATE webhook_outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?",
                [.integer(at), .text(id)])
        }
    }

    package func markWebhookAttemptFailed(
        id: String, attempts: Int, nextAttemptAt: Int64?, error: String, at: Int64
    ) async throws {
        _ = try await writer.write { db in
            try db.run(
                """
                UPDATE webhook_outbox SET attempts = ?, next_attempt_at = COALESCE(?, next_attempt_at),
                  failed_at = CASE WHEN ? IS NULL THEN ? ELSE NULL END, last_error = ?
                WHERE id = ?
                """,
                [.integer(Int64(attempts)), .optional(nextAttemptAt), .optional(nextAttemptAt), .integer(at),
                 .text(String(error.prefix(500))), .text(id)])
        }
    }
}
