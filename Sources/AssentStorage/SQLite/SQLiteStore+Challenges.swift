package import AssentServerCore
package import AssentWire

extension SQLiteStore {
    static let answerAction: SQL = """
        UPDATE actions SET state = $1, verification_method = $2, state_updated_at = $3
        WHERE tenant_id = $4 AND idempotency_key = $5 AND state = 'CHALLENGE_REQUIRED'
        """
    static let answerAuthenticator: SQL = "UPDATE authenticators SET last_verified_at = $1 WHERE id = $2 AND tenant_id = $3"

    /// The conditional update of the challenge, then — only if it moved — its action and the authenticator's last
    /// verification, as statements of the writer's transaction. (PostgreSQL says all of it in one statement, to
    /// save round trips; SQLite has no data-changing statement inside `WITH` and no round trips to save.)
    package func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, pushGuardOf: String?, appAttestCounter: Int64?,
        recording: SignInRecording?
    ) async throws -> ChallengeAnswerOutcome {
        let answered = try await write { db -> Challenge? in
            guard let answered = try Self.answer(
                tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
                verificationMethod: verificationMethod, now: now, in: db)
            else { return nil }
            try ChallengeQueries.advanceAppAttestCounter(
                appAttestCounter, authenticatorID: authenticatorID, tenantID: tenantID, in: db)
            if let recording { try SignInQueries.append(recording, in: db) }
            return answered
        }
        // Read after the answer committed, as PostgreSQL does (no round trips to save here).
        guard let answered, let pushGuardOf else { return ChallengeAnswerOutcome(challenge: answered) }
        return ChallengeAnswerOutcome(
            challenge: answered, pushGuard: try await pushGuard(tenantID: tenantID, userID: pushGuardOf, now: now))
    }

    /// The answer with the push guard's change and the audit entry, in the writer's one transaction.
    package func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, changing guardChange: PushGuardChange, audit: AuditAppend?,
        appAttestCounter: Int64?, recording: SignInRecording?
    ) async throws -> Challenge? {
        try await write { db -> Challenge? in
            guard let answered = try Self.answer(
                tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
                verificationMethod: verificationMethod, now: now, in: db)
            else { return nil }
            try ChallengeQueries.advanceAppAttestCounter(
                appAttestCounter, authenticatorID: authenticatorID, tenantID: tenantID, in: db)
            _ = try PushGuardQueries.apply(guardChange, tenantID: tenantID, now: now, in: db)
            if let audit { try AuditQueries.append(audit, on: db) }
            if let recording { try SignInQueries.append(recording, in: db) }
            return answered
        }
    }

    /// The answer's statements, inside the caller's transaction: the answered challenge, or nil when it was not open.
    static func answer(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, in db: SQLiteConnection
    ) throws -> Challenge? {
        let states = from.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let answer = SQL("""
            UPDATE challenges SET state = $1, answered_at = $2, answered_by = $3
            WHERE id = $4 AND tenant_id = $5 AND state IN (\(states)) AND expires_at > $2
              AND (state = 'pending' OR answered_by = $3)
              AND EXISTS (SELECT 1 FROM authenticators WHERE id = $3 AND tenant_id = $5
                          AND (expires_at IS NULL OR expires_at > $2))
            RETURNING \(StoreRecords.challengeColumns)
            """)
        guard let challenge = try db.queryOne(
            answer,
            [.text(approved ? "approved" : "denied"), .integer(now), .text(authenticatorID), .text(id), .text(tenantID)],
            StoreRecords.challenge)
        else { return nil }
        if let key = challenge.idempotencyKey {
            // Only an action still waiting for its challenge moves: one the backend blocked (or that already
            // failed) is never turned into a success by a late approval. The whole answer is then undone.
            let moved = try db.update(
                Self.answerAction,
                [.text(approved ? ActionState.challengeSucceeded.rawValue : ActionState.challengeFailed.rawValue),
                 .text(verificationMethod.rawValue), .integer(now), .text(tenantID), .text(key)])
            guard moved == 1 else {
                throw StoreError(.constraintViolation, "the action is no longer waiting for a challenge")
            }
        }
        try db.update(
            Self.answerAuthenticator,
            [.integer(now), .text(authenticatorID), .text(tenantID)])
        return challenge
    }
}
