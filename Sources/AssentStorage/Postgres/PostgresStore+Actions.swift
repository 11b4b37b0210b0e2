package import AssentServerCore

extension PostgresStore {
    /// The user record ($1…$12, ``UserQueries/upsert``) and a new action ($13…$28) in one statement. When the
    /// action's idempotency key was taken meanwhile (another instance tracked it), the statement fails with a
    /// serialization failure (SQLSTATE 40001, through `assent_raise`), undoing the user write too, and the pool runs
    /// the transaction again, which then finds that action.
    static let trackInsert = SQL("""
        WITH u AS (\(UserQueries.upsert.postgres) RETURNING 1),
        a AS (
          INSERT INTO actions (\(StoreRecords.actionColumns))
          VALUES ($13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28)
          ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
          RETURNING 1)
        SELECT CASE WHEN (SELECT COUNT(*) FROM a) = 1 THEN 1
                    ELSE assent_raise('40001', 'the idempotency key was taken meanwhile') END
        """)

    /// ``SQLStore``'s track in two round trips: `BEGIN` and the three reads (the action by its key, the user with
    /// its row lock — so the authenticators read after it cannot change before the action is in — and the user's
    /// authenticators) in one pipeline; then the user record and the action with `COMMIT` in another.
    package func trackAction(
        _ action: Action, user: @escaping @Sendable (User?) -> User,
        decide: @escaping @Sendable (inout Action, [Authenticator]) -> Void
    ) async throws -> TrackOutcome {
        try await write { db in
            let tenant = StoreValue.text(action.tenantID)
            let rows = try db.runAll([
                (ActionQueries.byKey, [tenant, .text(action.idempotencyKey)]),
                (UserQueries.byIDLocked, [tenant, .text(action.userID)]),
                (CredentialQueries.byUser, [tenant, .text(action.userID)]),
            ])
            let authenticators = try rows[2].map(StoreRecords.authenticator)
            if let existing = try rows[0].first.map(StoreRecords.action) {
                guard existing.userID == action.userID, existing.actionCode == action.actionCode else {
                    throw StoreError(.constraintViolation, "idempotency key already names another action")
                }
                return TrackOutcome(action: existing, authenticators: authenticators, created: false)
            }
            let current = try rows[1].first.map(StoreRecords.user)
            var decided = action
            decide(&decided, authenticators)
            _ = try db.runAndCommit(
                Self.trackInsert.postgres, StoreRecords.userValues(user(current)) + StoreRecords.actionValues(decided))
            return TrackOutcome(action: decided, authenticators: authenticators, created: true)
        }
    }
}

extension PostgresStore {
    /// The validation in one statement: the conditional mark ($4 says the token may mark it; the action must be user
    /// $5's action $6 and have succeeded; a second caller waits for the first one's row lock, re-checks
    /// `validated_at IS NULL` and changes nothing) and the action as it was before, with whether it was marked.
    static let validate = SQL("""
        WITH v AS (
          UPDATE actions SET validated_at = $1
          WHERE tenant_id = $2 AND idempotency_key = $3 AND validated_at IS NULL AND $4::boolean
            AND user_id = $5 AND action_code = $6 AND state IN ('CHALLENGE_SUCCEEDED', 'REVIEW_SUCCEEDED')
          RETURNING 1)
        SELECT \(StoreRecords.actionColumns), (SELECT COUNT(*) FROM v) FROM actions
        WHERE tenant_id = $2 AND idempotency_key = $3
        """)

    package func validateAction(
        tenantID: String, idempotencyKey: String, userID: String, actionCode: String, mark: Bool, at: Int64
    ) async throws -> (action: Action?, marked: Bool) {
        let values: [StoreValue] = [
            .integer(at), .text(tenantID), .text(idempotencyKey), .bool(mark), .text(userID), .text(actionCode)]
        let found = try await writeOne { db in
            try db.queryOne(Self.validate, values) { row in
                (try StoreRecords.action(row), row.int64(StoreRecords.actionColumnCount) == 1)
            }
        }
        return found.map { ($0.0, $0.1) } ?? (nil, false)
    }
}
