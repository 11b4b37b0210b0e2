import AssentServerCore
import AssentWire

/// Actions' statements, the same in both dialects.
enum ActionQueries {
    static let byKey: SQL = "SELECT \(StoreRecords.actionColumns) FROM actions WHERE tenant_id = $1 AND idempotency_key = $2"
    /// Inserts an action: parameters `$1`…`$16` are ``StoreRecords/actionValues(_:)``.
    static let insert: SQL = """
        INSERT INTO actions (\(StoreRecords.actionColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
        """
    /// The user record ($1…$12, ``UserQueries/upsert``) and a new action ($13…$28), as one write; changes nothing
    /// (reports 0) when the action's idempotency key is taken.
    static let saveUserAndInsert: SQL = .chain(UserQueries.upsert, then: """
        INSERT INTO actions (\(StoreRecords.actionColumns))
        VALUES ($13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28)
        ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
        """)
    static let updateState: SQL = """
        UPDATE actions SET state = $1, verification_method = COALESCE($2, verification_method),
          state_updated_at = $3 WHERE tenant_id = $4 AND idempotency_key = $5
        RETURNING \(StoreRecords.actionColumns)
        """
    /// A conditional update: in PostgreSQL a second caller waits for the first one's row lock, then re-checks
    /// `validated_at IS NULL` against the committed row and changes nothing.
    static let markValidated: SQL = """
        UPDATE actions SET validated_at = $1
        WHERE tenant_id = $2 AND idempotency_key = $3 AND validated_at IS NULL
        """

    static func action(tenantID: String, idempotencyKey: String, in db: some StoreConnection) throws -> Action? {
        try db.queryOne(byKey, [.text(tenantID), .text(idempotencyKey)], StoreRecords.action)
    }

    static func insertAction(_ action: Action, in db: some StoreConnection) throws {
        try db.update(insert, StoreRecords.actionValues(action))
    }
}

extension SQLStore {
    package func trackAction(
        _ action: Action, user: @escaping @Sendable (User?) -> User,
        decide: @escaping @Sendable (inout Action, [Authenticator]) -> Void
    ) async throws -> TrackOutcome {
        try await write { db in
            if let existing = try ActionQueries.action(tenantID: action.tenantID, idempotencyKey: action.idempotencyKey, in: db) {
                guard existing.userID == action.userID, existing.actionCode == action.actionCode else {
                    throw StoreError(.constraintViolation, "idempotency key already names another action")
                }
                let authenticators = try CredentialQueries.authenticators(tenantID: action.tenantID, userID: action.userID, in: db)
                return TrackOutcome(action: existing, authenticators: authenticators, created: false)
            }
            // The user row is locked first (PostgreSQL), so the authenticators read next cannot change before the
            // action is in.
            let current = try UserQueries.user(tenantID: action.tenantID, userID: action.userID, lock: true, in: db)
            let authenticators = try CredentialQueries.authenticators(tenantID: action.tenantID, userID: action.userID, in: db)
            var decided = action
            decide(&decided, authenticators)
            // The user record and the action in one write (one round trip in PostgreSQL). Another instance may have
            // inserted the same key meanwhile: then start over and return its action.
            let inserted = try db.update(
                ActionQueries.saveUserAndInsert, StoreRecords.userValues(user(current)) + StoreRecords.actionValues(decided))
            guard inserted == 1 else { throw StoreRetry() }
            return TrackOutcome(action: decided, authenticators: authenticators, created: true)
        }
    }

    package func action(tenantID: String, idempotencyKey: String) async throws -> Action? {
        try await read { try ActionQueries.action(tenantID: tenantID, idempotencyKey: idempotencyKey, in: $0) }
    }

    package func updateActionState(
        tenantID: String, idempotencyKey: String, state: ActionState, verificationMethod: VerificationMethod?, at: Int64
    ) async throws -> Action? {
        try await writeOne { db in
            try db.queryOne(
                ActionQueries.updateState,
                [.text(state.rawValue), .optional(verificationMethod?.rawValue), .integer(at), .text(tenantID),
                 .text(idempotencyKey)], StoreRecords.action)
        }
    }

    package func validateAction(
        tenantID: String, idempotencyKey: String, userID: String, actionCode: String, mark: Bool, at: Int64
    ) async throws -> ActionValidation {
        guard let action = try await action(tenantID: tenantID, idempotencyKey: idempotencyKey) else {
            return ActionValidation(action: nil, marked: false)
        }
        guard mark, action.userID == userID, action.actionCode == actionCode,
              action.state == .challengeSucceeded || action.state == .reviewSucceeded
        else { return ActionValidation(action: action, marked: false) }
        return ActionValidation(
            action: action, marked: try await markActionValidated(tenantID: tenantID, idempotencyKey: idempotencyKey, at: at))
    }

    package func markActionValidated(tenantID: String, idempotencyKey: String, at: Int64) async throws -> Bool {
        try await writeOne { db in
            try db.update(ActionQueries.markValidated, [.integer(at), .text(tenantID), .text(idempotencyKey)]) == 1
        }
    }
}
