package import AssentServerCore
import AssentWire
import Foundation

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
    /// A whole track in one statement, for ``trackAction(_:changes:states:)``. Parameters: the user's changes ($1
    /// tenant, $2 user, $3 e-mail, $4 phone number, $5 user name, $6 locale, $7 now: ``UserChanges``) and the new
    /// action ($8…$23, ``StoreRecords/actionValues(_:)``, whose state $12 is the state when the user has an
    /// authenticator; $24 the state when not). An action with the key already there (`existing`) is returned as it
    /// is and nothing is written. Otherwise the user record is created or changed — by ``UserChanges``' rule, on the
    /// newest row version: `ON CONFLICT DO UPDATE` waits for a concurrent writer of the row — and the action is
    /// inserted with its state picked from the user's authenticators in the statement's snapshot. When another
    /// instance inserted the key meanwhile, the statement fails with SQLSTATE 40001 through `assent_raise` (undoing
    /// the user write) and the pool runs it again, which then finds that action. Rows: whether the action was
    /// created (0 or 1), the action's columns, then one of the user's authenticators (NULLs when it has none).
    static let trackOnce: SQL = {
        let bigint: Set<String> = ["created_at", "state_updated_at", "validated_at"]
        let selected = StoreRecords.actionColumns.split(separator: ",").enumerated().map { index, column -> String in
            let name = column.trimmingCharacters(in: .whitespacesAndNewlines)
            let parameter = "$\(index + 8)"
            if name == "state" {
                return "CASE WHEN EXISTS (SELECT 1 FROM authenticators WHERE tenant_id = $1 AND user_id = $2) "
                    + "THEN \(parameter) ELSE $24 END"
            }
            return bigint.contains(name) ? "\(parameter)::bigint" : parameter
        }.joined(separator: ", ")
        let authenticatorColumns = StoreRecords.authenticatorColumns.split(separator: ",")
            .map { "au." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
        let nulls = Array(repeating: "NULL", count: StoreRecords.actionColumnCount).joined(separator: ", ")
        return SQL("""
            WITH existing AS (
              SELECT \(StoreRecords.actionColumns) FROM actions WHERE tenant_id = $8 AND idempotency_key = $9),
            u AS (
              INSERT INTO users (tenant_id, user_id, email, email_verified, phone_number, phone_number_verified,
                username, locale, created_at, updated_at)
              SELECT $1, $2, $3, false, $4, false, $5, $6, $7::bigint, $7::bigint WHERE NOT EXISTS (SELECT 1 FROM existing)
              ON CONFLICT (tenant_id, user_id) DO UPDATE SET
                email = COALESCE(excluded.email, users.email),
                email_verified = CASE WHEN excluded.email IS DISTINCT FROM users.email AND excluded.email IS NOT NULL
                                      THEN false ELSE users.email_verified END,
                phone_number = COALESCE(excluded.phone_number, users.phone_number),
                phone_number_verified = CASE WHEN excluded.phone_number IS DISTINCT FROM users.phone_number
                                               AND excluded.phone_number IS NOT NULL
                                             THEN false ELSE users.phone_number_verified END,
                username = COALESCE(excluded.username, users.username),
                locale = COALESCE(excluded.locale, users.locale),
                updated_at = excluded.updated_at
              RETURNING 1),
            a AS (
              INSERT INTO actions (\(StoreRecords.actionColumns))
              SELECT \(selected) WHERE NOT EXISTS (SELECT 1 FROM existing)
              ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
              RETURNING \(StoreRecords.actionColumns)),
            r AS (
              SELECT 0::bigint AS created, * FROM existing
              UNION ALL SELECT 1, * FROM a
              UNION ALL SELECT assent_raise('40001', 'the idempotency key was taken meanwhile'), \(nulls)
              WHERE NOT EXISTS (SELECT 1 FROM existing) AND NOT EXISTS (SELECT 1 FROM a))
            SELECT r.*, \(authenticatorColumns) FROM r
            LEFT JOIN authenticators au ON au.tenant_id = $1 AND au.user_id = $2
            ORDER BY au.created_at, au.id
            """)
    }()

    /// The track in one round trip: ``trackOnce`` with `BEGIN` and `COMMIT` in one pipeline.
    package func trackAction(_ action: Action, changes: UserChanges, states: TrackStates) async throws -> TrackOutcome {
        var decided = action
        decided.state = states.enrolled
        let values: [StoreValue] = [
            .text(action.tenantID), .text(action.userID), .optional(changes.email), .optional(changes.phoneNumber),
            .optional(changes.username), .optional(changes.locale), .integer(changes.now),
        ] + StoreRecords.actionValues(decided) + [.text(states.notEnrolled.rawValue)]
        let width = 1 + StoreRecords.actionColumnCount
        let outcome = try await write { db -> TrackOutcome in
            let rows = try db.runAndCommit(Self.trackOnce.postgres, values).rows
            guard let first = rows.first else { throw StoreError(.corrupt, "the track returned no action") }
            let stored = try StoreRecords.action(PostgresRow(values: Array(first.values[1..<width])))
            let authenticators = try rows.filter { $0.values[width] != nil }
                .map { try StoreRecords.authenticator(PostgresRow(values: Array($0.values[width...]))) }
            return TrackOutcome(action: stored, authenticators: authenticators, created: first.int64(0) == 1)
        }
        if !outcome.created {
            guard outcome.action.userID == action.userID, outcome.action.actionCode == action.actionCode else {
                throw StoreError(.constraintViolation, "idempotency key already names another action")
            }
        }
        return outcome
    }
}

extension PostgresStore {
    /// The validation in one statement: the conditional mark ($4 says the token may mark it; the action must be user
    /// $5's action $6 and have succeeded; a second caller waits for the first one's row lock, re-checks
    /// `validated_at IS NULL` and changes nothing) and the action as it was before, with whether it was marked.
    /// The conditions beside the key are one `(…) IS TRUE` test so that none of them can serve as an index condition:
    /// with `user_id = $5` on its own, a prepared statement's generic plan was seen to find the row through
    /// `actions_by_user`, reading every action of the user (the same rows pass either way: `IS TRUE` refuses NULL as
    /// `WHERE` does).
    static let validate = SQL("""
        WITH v AS (
          UPDATE actions SET validated_at = $1
          WHERE tenant_id = $2 AND idempotency_key = $3
            AND (validated_at IS NULL AND $4::boolean AND user_id = $5 AND action_code = $6
                 AND state IN ('CHALLENGE_SUCCEEDED', 'REVIEW_SUCCEEDED')) IS TRUE
          RETURNING 1)
        SELECT \(StoreRecords.actionColumns), (SELECT COUNT(*) FROM v) FROM actions
        WHERE tenant_id = $2 AND idempotency_key = $3
        """)

    package func validateAction(
        tenantID: String, idempotencyKey: String, userID: String, actionCode: String, mark: Bool, at: Int64
    ) async throws -> ActionValidation {
        let values: [StoreValue] = [
            .integer(at), .text(tenantID), .text(idempotencyKey), .bool(mark), .text(userID), .text(actionCode)]
        let found = try await writeOne { db in
            try db.queryOne(Self.validate, values) { row in
                ActionValidation(
                    action: try StoreRecords.action(row), marked: row.int64(StoreRecords.actionColumnCount) == 1)
            }
        }
        return found ?? ActionValidation(action: nil, marked: false)
    }
}
