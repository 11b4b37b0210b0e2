import AssentServerCore
import AssentWire

/// Challenges' statements, the same in both dialects. Answering one is not here: PostgreSQL does it in one statement
/// of three data-changing parts, which SQLite cannot say (see each store's `answerChallenge`).
enum ChallengeQueries {
    /// Inserts a challenge: parameters `$1`…`$19` are ``StoreRecords/challengeValues(_:)``.
    static let insert: SQL = """
        INSERT INTO challenges (\(StoreRecords.challengeColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
        """
    /// Counts the open challenges of the user ($4) of the kind ($3) in the tenant ($2) at the new challenge's
    /// creation ($9): ``insertUnderCap`` compares it with $20.
    static let openForUser: SQL = """
        (SELECT COUNT(*) FROM challenges WHERE tenant_id = $2 AND user_id = $4 AND kind = $3
         AND state IN ('pending', 'claimed') AND expires_at > $9\(postgres: "::bigint"))
        """
    /// ``insert`` unless ``openForUser`` has reached $20; reports 0 when refused. PostgreSQL needs the types of the
    /// selected parameters that are not text.
    static let insertUnderCap: SQL = """
        INSERT INTO challenges (\(StoreRecords.challengeColumns))
        SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9\(postgres: "::bigint"), $10\(postgres: "::bigint"),
          $11\(postgres: "::bigint"), $12, $13, $14, $15, $16, $17, $18\(postgres: "::bytea"),
          $19\(postgres: "::boolean")
        WHERE \(openForUser) < $20\(postgres: "::bigint")
        """
    static let byID: SQL = "SELECT \(StoreRecords.challengeColumns) FROM challenges WHERE id = $1 AND tenant_id = $2"
    /// Advances an authenticator's App Attest counter to $1 only while the stored one is below it: 1 row, or 0 when
    /// another answer stored it (or a later one) first. In PostgreSQL the row lock the answer took on the
    /// authenticator (its last verification) makes a concurrent answer wait and then re-read the committed counter.
    static let advanceAppAttestCounter: SQL = """
        UPDATE authenticators SET app_attest_counter = $1
        WHERE id = $2 AND tenant_id = $3 AND app_attest_counter IS NOT NULL AND app_attest_counter < $1
        """

    /// Advances the App Attest counter of the answering authenticator (when `counter` is given) inside the answer's
    /// transaction; throws ``AppAttestCounterUsed`` (rolling the answer back) when it was not below `counter`.
    static func advanceAppAttestCounter(
        _ counter: Int64?, authenticatorID: String, tenantID: String, in db: some StoreConnection
    ) throws {
        guard let counter else { return }
        guard try db.update(advanceAppAttestCounter, [.integer(counter), .text(authenticatorID), .text(tenantID)]) == 1
        else { throw AppAttestCounterUsed() }
    }
    static let pendingPush: SQL = """
        SELECT \(StoreRecords.challengeColumns) FROM challenges
        WHERE tenant_id = $1 AND user_id = $2 AND kind = 'push' AND state = 'pending' AND expires_at > $3
          AND (target_authenticator_id IS NULL OR target_authenticator_id = $4)
        ORDER BY created_at DESC, id LIMIT 1
        """
    /// ``pendingPush`` for the credential of method $4 whose public key is $2 (its user and id), found in the same
    /// statement: a device's get-challenge needs no earlier read of its credential. Parameters: tenant ($1), key ($2),
    /// now ($3), method ($4).
    static let pendingPushForKey: SQL = """
        SELECT \(StoreRecords.challengeColumns) FROM challenges
        WHERE tenant_id = $1 AND kind = 'push' AND state = 'pending' AND expires_at > $3
          AND user_id = (SELECT user_id FROM authenticators
                         WHERE tenant_id = $1 AND verification_method = $4 AND public_key = $2)
          AND (target_authenticator_id IS NULL
               OR target_authenticator_id = (SELECT id FROM authenticators
                                             WHERE tenant_id = $1 AND verification_method = $4 AND public_key = $2))
        ORDER BY created_at DESC, id LIMIT 1
        """
    /// Compare-and-set on the row: of any number of devices racing (through any instances), the first moves it to
    /// `claimed`; in PostgreSQL the others wait for its row lock, re-check `state = 'pending'` and change nothing.
    static let claim: SQL = """
        UPDATE challenges SET state = 'claimed', answered_by = $1, user_id = COALESCE(user_id, $2),
          action_code = COALESCE(action_code, $3), idempotency_key = COALESCE(idempotency_key, $4)
        WHERE id = $5 AND tenant_id = $6 AND kind = 'qr' AND state = 'pending' AND expires_at > $7
          AND (user_id IS NULL OR user_id = $2)
        RETURNING \(StoreRecords.challengeColumns)
        """

    /// Inserts `challenge` inside the caller's transaction unless its user has `maxOpenForUser` open challenges of
    /// its kind; false when refused. Concurrent starts for one user take turns on a lock (PostgreSQL: an advisory
    /// lock, from any instance), so the count made after it cannot be passed.
    static func insert(_ challenge: Challenge, maxOpenForUser: Int?, in db: some StoreConnection) throws -> Bool {
        let values = StoreRecords.challengeValues(challenge)
        guard let maxOpenForUser, let user = challenge.userID else { return try db.update(insert, values) == 1 }
        try lockCap(tenantID: challenge.tenantID, userID: user, in: db)
        return try db.update(insertUnderCap, values + [.integer(Int64(maxOpenForUser))]) == 1
    }

    /// The lock concurrent challenge starts for one user take turns on.
    static func lockCap(tenantID: String, userID: String, in db: some StoreConnection) throws {
        try db.lock("challenge-cap:\(tenantID):\(userID)")
    }
}

extension SQLStore {
    package func insertChallenge(_ challenge: Challenge, maxOpenForUser: Int?) async throws -> Bool {
        guard maxOpenForUser != nil, challenge.userID != nil else {
            // No cap to hold: one statement (in PostgreSQL without BEGIN and COMMIT).
            let values = StoreRecords.challengeValues(challenge)
            return try await writeOne { try $0.update(ChallengeQueries.insert, values) == 1 }
        }
        return try await write { try ChallengeQueries.insert(challenge, maxOpenForUser: maxOpenForUser, in: $0) }
    }

    package func challenge(tenantID: String, id: String) async throws -> Challenge? {
        try await read { try $0.queryOne(ChallengeQueries.byID, [.text(id), .text(tenantID)], StoreRecords.challenge) }
    }

    package func challengeAndAction(
        tenantID: String, id: String, idempotencyKey: String
    ) async throws -> ChallengeAndAction {
        try await read { db in
            ChallengeAndAction(
                challenge: try db.queryOne(ChallengeQueries.byID, [.text(id), .text(tenantID)], StoreRecords.challenge),
                action: try ActionQueries.action(tenantID: tenantID, idempotencyKey: idempotencyKey, in: db))
        }
    }

    package func pushStartReads(
        tenantID: String, idempotencyKey: String, userID: String, now: Int64
    ) async throws -> PushStartReads {
        try await read { db in
            let action = try ActionQueries.action(tenantID: tenantID, idempotencyKey: idempotencyKey, in: db)
            let pushGuard = try PushGuardQueries.read(tenantID: tenantID, userID: userID, now: now, in: db)
            let authenticators = try CredentialQueries.authenticators(tenantID: tenantID, userID: userID, in: db)
            return PushStartReads(action: action, pushGuard: pushGuard, authenticators: authenticators)
        }
    }

    package func pendingPushChallenge(
        tenantID: String, userID: String, authenticatorID: String, now: Int64
    ) async throws -> Challenge? {
        try await read { db in
            try db.queryOne(
                ChallengeQueries.pendingPush, [.text(tenantID), .text(userID), .integer(now), .text(authenticatorID)],
                StoreRecords.challenge)
        }
    }

    package func pushCredentialAndPendingChallenge(
        tenantID: String, publicKey: [UInt8], now: Int64
    ) async throws -> CredentialAndChallenge {
        try await read { db in
            guard let authenticator = try db.queryOne(
                CredentialQueries.byKey, [.text(tenantID), .text(VerificationMethod.push.rawValue), .blob(publicKey)],
                StoreRecords.authenticator)
            else { return CredentialAndChallenge() }
            let challenge = try db.queryOne(
                ChallengeQueries.pendingPush,
                [.text(tenantID), .text(authenticator.userID), .integer(now), .text(authenticator.id)],
                StoreRecords.challenge)
            return CredentialAndChallenge(authenticator: authenticator, challenge: challenge)
        }
    }

    package func credentialAndChallenge(
        tenantID: String, method: VerificationMethod, publicKey: [UInt8], challengeID: String
    ) async throws -> CredentialAndChallenge {
        try await read { db in
            CredentialAndChallenge(
                authenticator: try db.queryOne(
                    CredentialQueries.byKey, [.text(tenantID), .text(method.rawValue), .blob(publicKey)],
                    StoreRecords.authenticator),
                challenge: try db.queryOne(
                    ChallengeQueries.byID, [.text(challengeID), .text(tenantID)], StoreRecords.challenge))
        }
    }

    package func claimChallenge(
        tenantID: String, id: String, authenticator: Authenticator, anonymousAction: Action?, now: Int64
    ) async throws -> Challenge? {
        try await writeAndAnnounce { db in
            guard let claimed = try db.queryOne(
                ChallengeQueries.claim,
                [.text(authenticator.id), .text(authenticator.userID), .optional(anonymousAction?.actionCode),
                 .optional(anonymousAction?.idempotencyKey), .text(id), .text(tenantID), .integer(now)],
                StoreRecords.challenge)
            else { return nil }
            if let action = anonymousAction, claimed.idempotencyKey == action.idempotencyKey {
                try UserQueries.ensureUser(tenantID: tenantID, userID: action.userID, now: now, in: db)
                try ActionQueries.insertAction(action, in: db)
            }
            // A claim is a use of the credential (lastAuthenticatedAt), recorded in the claim's transaction.
            try db.update(CredentialQueries.stampLastVerified, [.integer(now), .text(authenticator.id), .text(tenantID)])
            return claimed
        }
    }
}
