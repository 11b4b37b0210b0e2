package import AssentServerCore
package import AssentWire

extension PostgresStore {
    /// One statement does it all: a conditional update of the challenge — two answers from any instances serialise
    /// on its row lock, and the second re-checks the state against the committed row and changes nothing — then,
    /// only if it moved, its action (only while that still waits for a challenge: one the backend blocked, or that
    /// already failed, never becomes a success; otherwise the statement fails with SQLSTATE 23000 through
    /// `assent_raise`, undoing all of it) and the authenticator's last verification. It is sent with `BEGIN`,
    /// `COMMIT` and the announcement to the other instances (``announceAnswer``, after the commit; then, for a push
    /// answer, the push guard's read) in one pipeline: one round trip. (SQLite, which has no data-changing statement inside `WITH`, runs the parts one after the
    /// other: `SQLiteStore+Challenges.swift`.)
    static let answer = answerStatement(recorded: "")
    /// ``answer`` that also appends a sign-in row ($9…$21, ``SignInQueries/columns``) when the challenge moved: a
    /// data-changing part of the same statement (PostgreSQL runs every one, referenced or not), so the row commits
    /// with the answer, in its round trip.
    static let answerRecorded = answerStatement(
        recorded: ",\n" + recordedPart("h", SignInQueries.columns, "sign_in_history", from: 9, integers: [2, 12]))
    /// ``answerRecorded`` that also queues one webhook event ($22…$28, ``StoreRecords/webhookEventColumns``).
    static let answerRecordedWithEvent = answerStatement(
        recorded: ",\n" + recordedPart("h", SignInQueries.columns, "sign_in_history", from: 9, integers: [2, 12]) + ",\n"
            + recordedPart("w", StoreRecords.webhookEventColumns, "webhook_outbox", from: 22, integers: [5, 6, 7]))

    /// `name AS (INSERT INTO table (columns) SELECT $from, … FROM c RETURNING 1)`: one row when the answer moved the
    /// challenge `c`, none otherwise; the columns at the 1-based positions in `integers` are typed `bigint`.
    static func recordedPart(_ name: String, _ columns: String, _ table: String, from: Int, integers: Set<Int>) -> String {
        let count = columns.split(separator: ",").count
        let parameters = (0..<count).map { "$\(from + $0)" + (integers.contains($0 + 1) ? "::bigint" : "::text") }
        return "\(name) AS (INSERT INTO \(table) (\(columns)) SELECT \(parameters.joined(separator: ", ")) FROM c RETURNING 1)"
    }

    static func answerStatement(recorded: String) -> SQL { """
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
          RETURNING 1)\(recorded)
        SELECT c.*, (SELECT COUNT(*) FROM a), (SELECT COUNT(*) FROM u),
          CASE WHEN c.idempotency_key IS NOT NULL AND (SELECT COUNT(*) FROM a) <> 1
               THEN assent_raise('23000', 'the action is no longer waiting for a challenge') ELSE 0 END
        FROM c
        """
    }

    /// Announces ($1, $2) the answer ``answer`` just committed, only if it did: the challenge ($3, $4) is in the
    /// answered state ($5) by the authenticator ($6) at the answer's time ($7). Runs after the commit, in a
    /// transaction of its own that writes nothing, so it flushes nothing (PostgreSQL serialises the commits of
    /// transactions that notify, see ``PostgresStore/writeAndAnnounce(_:)``).
    static let announceAnswer: SQL = """
        SELECT pg_notify($1, $2) FROM challenges
        WHERE id = $3 AND tenant_id = $4 AND state = $5 AND answered_by = $6 AND answered_at = $7
        """

    package func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, pushGuardOf: String?, appAttestCounter: Int64?,
        recording: SignInRecording?
    ) async throws -> ChallengeAnswerOutcome {
        if let appAttestCounter {
            // An answer with an App Attest assertion: its counter advances in the answer's transaction (a few more
            // round trips, for the tenants that ask for assertions); the push guard is the caller's to read.
            return ChallengeAnswerOutcome(challenge: try await writeAndAnnounce { db -> Challenge? in
                try Self.answerAdvancing(
                    tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
                    verificationMethod: verificationMethod, now: now, appAttestCounter: appAttestCounter,
                    recording: recording, in: db)
            })
        }
        let state: Challenge.State = approved ? .approved : .denied
        let states = "{" + from.map(\.rawValue).joined(separator: ",") + "}"
        let values: [StoreValue] = [
            .text(state.rawValue), .integer(now), .text(authenticatorID), .text(id), .text(tenantID), .text(states),
            .text(approved ? ActionState.challengeSucceeded.rawValue : ActionState.challengeFailed.rawValue),
            .text(verificationMethod.rawValue)]
        if let recording, recording.events.count > 1 {
            // More events than the statement has room for (none today): the answer as a transaction of its own.
            let answered = try await writeAndAnnounce { db -> Challenge? in
                guard let answered = try db.queryOne(Self.answer, values, StoreRecords.challenge) else { return nil }
                try SignInQueries.append(recording, in: db)
                return answered
            }
            var outcome = ChallengeAnswerOutcome(challenge: answered)
            if answered != nil, let pushGuardOf {
                outcome.pushGuard = try await pushGuard(tenantID: tenantID, userID: pushGuardOf, now: now)
            }
            return outcome
        }
        // The sign-in row (and its event) ride in the answer's statement.
        let (statement, parameters): (SQL, [StoreValue]) = switch (recording, recording?.events.first) {
        case (nil, _): (Self.answer, values)
        case (let recording?, nil): (Self.answerRecorded, values + SignInQueries.values(recording.signIn))
        case (let recording?, let event?):
            (Self.answerRecordedWithEvent,
             values + SignInQueries.values(recording.signIn) + StoreRecords.webhookEventValues(event))
        }
        let payload = ChallengeChange(tenantID: tenantID, challengeID: id, state: state).payload(from: instanceID)
        let announcement: [StoreValue] = [
            .text(Self.challengeChannel), .text(payload), .text(id), .text(tenantID), .text(state.rawValue),
            .text(authenticatorID), .integer(now)]
        // The push guard's read rides after the announcement, in the same round trip (it commits nothing).
        let guardRead = pushGuardOf.map {
            (PushGuardQueries.guardAndExpiries.postgres, PushGuardQueries.values(tenantID: tenantID, userID: $0, now: now))
        }
        return try await write { db -> ChallengeAnswerOutcome in
            // A refused answer (the action no longer waits) fails the statement: nothing commits or is announced.
            let result = try db.runAndCommit(
                statement.postgres, parameters, then: [(Self.announceAnswer.postgres, announcement)] + (guardRead.map { [$0] } ?? []))
            let challenge = try result.rows.first.map(StoreRecords.challenge)
            guard let pushGuardOf, challenge != nil, result.after.count == 2, let rows = result.after[1] else {
                return ChallengeAnswerOutcome(challenge: challenge)
            }
            var pushGuard = PushGuardRead()
            for row in rows {
                try PushGuardQueries.fold(row, into: &pushGuard, tenantID: tenantID, userID: pushGuardOf, now: now)
            }
            return ChallengeAnswerOutcome(challenge: challenge, pushGuard: pushGuard)
        }
    }

    /// ``answer`` inside a transaction that then applies the push guard's change and appends the audit entry, and
    /// announces the answer once committed: a fraud report, rare enough to spend the round trips of a transaction
    /// (``answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:)`` keeps the
    /// common answer to one). A refused answer (the action no longer waits) fails ``answer``: nothing commits.
    package func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, changing guardChange: PushGuardChange, audit: AuditAppend?,
        appAttestCounter: Int64?, recording: SignInRecording?
    ) async throws -> Challenge? {
        try await writeAndAnnounce { db -> Challenge? in
            guard let answered = try Self.answerAdvancing(
                tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
                verificationMethod: verificationMethod, now: now, appAttestCounter: appAttestCounter,
                recording: recording, in: db)
            else { return nil }
            _ = try PushGuardQueries.apply(guardChange, tenantID: tenantID, now: now, in: db)
            if let audit { try AuditQueries.append(audit, on: db) }
            return answered
        }
    }

    /// ``answer`` inside the caller's transaction, then the App Attest counter's compare-and-set (when given) and the
    /// sign-in row of `recording`: the answered challenge, or nil (nothing recorded) when it was not open.
    static func answerAdvancing(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, appAttestCounter: Int64?, recording: SignInRecording?,
        in db: PostgresConnection
    ) throws -> Challenge? {
        let state: Challenge.State = approved ? .approved : .denied
        let states = "{" + from.map(\.rawValue).joined(separator: ",") + "}"
        let values: [StoreValue] = [
            .text(state.rawValue), .integer(now), .text(authenticatorID), .text(id), .text(tenantID), .text(states),
            .text(approved ? ActionState.challengeSucceeded.rawValue : ActionState.challengeFailed.rawValue),
            .text(verificationMethod.rawValue)]
        guard let answered = try db.queryOne(Self.answer, values, StoreRecords.challenge) else { return nil }
        try ChallengeQueries.advanceAppAttestCounter(
            appAttestCounter, authenticatorID: authenticatorID, tenantID: tenantID, in: db)
        if let recording { try SignInQueries.append(recording, in: db) }
        return answered
    }
}

extension PostgresStore {
    package func challengeAndAction(
        tenantID: String, id: String, idempotencyKey: String
    ) async throws -> ChallengeAndAction {
        try await read { db in
            let rows = try db.runAll([
                (ChallengeQueries.byID, [.text(id), .text(tenantID)]),
                (ActionQueries.byKey, [.text(tenantID), .text(idempotencyKey)]),
            ])
            return ChallengeAndAction(
                challenge: try rows[0].first.map(StoreRecords.challenge), action: try rows[1].first.map(StoreRecords.action))
        }
    }

    package func pushCredentialAndPendingChallenge(
        tenantID: String, publicKey: [UInt8], now: Int64
    ) async throws -> CredentialAndChallenge {
        try await read { db in
            let rows = try db.runAll([
                (CredentialQueries.byKey, [.text(tenantID), .text(VerificationMethod.push.rawValue), .blob(publicKey)]),
                (ChallengeQueries.pendingPushForKey,
                 [.text(tenantID), .blob(publicKey), .integer(now), .text(VerificationMethod.push.rawValue)]),
            ])
            guard let authenticator = try rows[0].first.map(StoreRecords.authenticator) else {
                return CredentialAndChallenge()
            }
            return CredentialAndChallenge(
                authenticator: authenticator, challenge: try rows[1].first.map(StoreRecords.challenge))
        }
    }

    package func credentialAndChallenge(
        tenantID: String, method: VerificationMethod, publicKey: [UInt8], challengeID: String
    ) async throws -> CredentialAndChallenge {
        try await read { db in
            let rows = try db.runAll([
                (CredentialQueries.byKey, [.text(tenantID), .text(method.rawValue), .blob(publicKey)]),
                (ChallengeQueries.byID, [.text(challengeID), .text(tenantID)]),
            ])
            return CredentialAndChallenge(
                authenticator: try rows[0].first.map(StoreRecords.authenticator),
                challenge: try rows[1].first.map(StoreRecords.challenge))
        }
    }

    package func pushStartReads(
        tenantID: String, idempotencyKey: String, userID: String, now: Int64
    ) async throws -> PushStartReads {
        try await read { db in
            let rows = try db.runAll([
                (ActionQueries.byKey, [.text(tenantID), .text(idempotencyKey)]),
                (PushGuardQueries.guardAndExpiries, PushGuardQueries.values(tenantID: tenantID, userID: userID, now: now)),
                (CredentialQueries.byUser, [.text(tenantID), .text(userID)]),
            ])
            var pushGuard = PushGuardRead()
            for row in rows[1] {
                try PushGuardQueries.fold(row, into: &pushGuard, tenantID: tenantID, userID: userID, now: now)
            }
            return PushStartReads(
                action: try rows[0].first.map(StoreRecords.action), pushGuard: pushGuard,
                authenticators: try rows[2].map(StoreRecords.authenticator))
        }
    }
}
