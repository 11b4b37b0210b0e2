package import AssentServerCore
package import AssentWire

extension PostgresStore {
    /// One statement (one round trip) does it all: a conditional update of the challenge — two answers from any
    /// instances serialise on its row lock, and the second re-checks the state against the committed row and changes
    /// nothing — then, only if it moved, its action (only while that still waits for a challenge: one the backend
    /// blocked, or that already failed, never becomes a success) and the authenticator's last verification; then the
    /// announcement to the other instances, once committed. (SQLite, which has no data-changing statement inside
    /// `WITH`, runs the parts one after the other: `SQLiteStore+Challenges.swift`.)
    static let answer: SQL = """
        WITH c AS (
          UPDATE challenges SET state = $1, answered_at = $2, answered_by = $3
          WHERE id = $4 AND tenant_id = $5 AND state = ANY($6::text[]) AND expires_at > $2
            AND (state = 'pending' OR answered_by = $3)
            AND EXISTS (SELECT 1 FROM authenticators WHERE id = $3 AND tenant_id = $5
                        AND (expires_at IS NULL OR expires_at > $2))
          RETURNING \(StoreRecords.challengeColumns)),
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
        """

    package func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64
    ) async throws -> Challenge? {
        let state: Challenge.State = approved ? .approved : .denied
        let states = "{" + from.map(\.rawValue).joined(separator: ",") + "}"
        return try await writeAndAnnounce { db -> Challenge? in
            try db.queryOne(
                Self.answer,
                [.text(state.rawValue), .integer(now), .text(authenticatorID), .text(id), .text(tenantID),
                 .text(states),
                 .text(approved ? ActionState.challengeSucceeded.rawValue : ActionState.challengeFailed.rawValue),
                 .text(verificationMethod.rawValue)]
            ) { row in
                let challenge = try StoreRecords.challenge(row)
                // The count of updated actions follows the challenge's columns.
                if challenge.idempotencyKey != nil, row.int64(StoreRecords.challengeColumnCount) != 1 {
                    // The whole answer is undone (the transaction rolls back; nothing is announced).
                    throw StoreError(.constraintViolation, "the action is no longer waiting for a challenge")
                }
                return challenge
            }
        }
    }
}
