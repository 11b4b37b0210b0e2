import AssentServerCore

/// The authentication history's statements (``SignInHistoryStore``), the same in both dialects. A page is one
/// statement whose text has only the filters asked for, so each filter combination is its own prepared text and
/// each finds its index (schema step 22): the tenant's rows by time, or by user, action or outcome and then time —
/// read newest first from the cursor, stopping at the page's end, however many rows the tenant keeps.
enum SignInQueries {
    static let columns = """
        tenant_id, at, user_id, action_code, method, factor, credential_id, outcome, reason, ip_address, user_agent, \
        verification_ms, challenge_id
        """
    static let insert: SQL = """
        INSERT INTO sign_in_history (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
        """
    static let byUser: SQL = """
        SELECT id, \(columns) FROM sign_in_history WHERE tenant_id = $1 AND user_id = $2 ORDER BY at DESC, id DESC
        """
    static let deleteUser: SQL = "DELETE FROM sign_in_history WHERE tenant_id = $1 AND user_id = $2"
    /// At most a sweep batch of the tenant's ($1) rows older than $2, found through `sign_in_history_by_time`.
    static let sweep = SweepBatch.delete("sign_in_history", where: "tenant_id = $1 AND at < $2")
    /// The challenges that expired unanswered in ($1, $2] with a user, as `expired` rows at their expiry — the
    /// interval the expiry count (``MetricsQueries/expiredBetween``) counts, in its transaction — returning the rows
    /// (for their webhook events).
    static let insertExpired: SQL = """
        INSERT INTO sign_in_history (\(columns))
        SELECT tenant_id, expires_at, user_id, action_code, kind, NULL, COALESCE(answered_by, target_authenticator_id),
          'expired', 'expired', ip_address, user_agent, NULL, id
        FROM challenges
        WHERE expires_at > $1 AND expires_at <= $2 AND state IN ('pending', 'claimed') AND user_id IS NOT NULL
        RETURNING id, \(columns)
        """

    /// `signIn`'s values in ``columns``' order.
    static func values(_ signIn: SignIn) -> [StoreValue] {
        [.text(signIn.tenantID), .integer(signIn.at), .text(signIn.userID), .optional(signIn.actionCode),
         .text(signIn.method), .optional(signIn.factor), .optional(signIn.credentialID), .text(signIn.outcome.rawValue),
         .optional(signIn.reason), .optional(signIn.ipAddress), .optional(signIn.userAgent),
         .optional(signIn.verificationMilliseconds), .optional(signIn.challengeID)]
    }

    /// A row of `id, ` + ``columns``.
    static func signIn(_ row: some StoreRow) throws -> SignIn {
        var signIn = SignIn(
            tenantID: try row.string(1), at: row.int64(2), userID: try row.string(3), method: try row.string(5),
            outcome: SignIn.Outcome(rawValue: try row.string(8)) ?? .refused, reason: row.optionalString(9))
        signIn.id = row.int64(0)
        signIn.actionCode = row.optionalString(4)
        signIn.factor = row.optionalString(6)
        signIn.credentialID = row.optionalString(7)
        signIn.ipAddress = row.optionalString(10)
        signIn.userAgent = row.optionalString(11)
        signIn.verificationMilliseconds = row.optionalInt64(12)
        signIn.challengeID = row.optionalString(13)
        return signIn
    }

    /// Appends `recording` (its row and events) inside the caller's transaction.
    static func append(_ recording: SignInRecording, in db: some StoreConnection) throws {
        try db.update(insert, values(recording.signIn))
        try WebhookQueries.enqueue(recording.events, in: db)
    }

    /// The page `query` asks for, as one statement and its values.
    static func page(_ query: SignInQuery) -> (SQL, [StoreValue]) {
        var conditions = ["tenant_id = $1"]
        var values: [StoreValue] = [.text(query.tenantID)]
        func add(_ condition: (String) -> String, _ value: StoreValue) {
            values.append(value)
            conditions.append(condition("$\(values.count)"))
        }
        if let user = query.userID { add({ "user_id = \($0)" }, .text(user)) }
        if let action = query.actionCode { add({ "action_code = \($0)" }, .text(action)) }
        if let outcome = query.outcome { add({ "outcome = \($0)" }, .text(outcome.rawValue)) }
        if let method = query.method { add({ "method = \($0)" }, .text(method)) }
        if let from = query.from { add({ "at >= \($0)" }, .integer(from)) }
        if let to = query.to { add({ "at < \($0)" }, .integer(to)) }
        if let after = query.after {
            // Newest first: rows before the cursor's (time, number). `at <= ` bounds the index range; the rest
            // breaks ties within the cursor's millisecond.
            values.append(.integer(after.at))
            let at = "$\(values.count)"
            values.append(.integer(after.id))
            conditions.append("at <= \(at) AND (at < \(at) OR id < $\(values.count))")
        }
        values.append(.integer(Int64(max(0, query.limit))))
        let text = "SELECT id, \(columns) FROM sign_in_history WHERE " + conditions.joined(separator: " AND ")
            + " ORDER BY at DESC, id DESC LIMIT $\(values.count)"
        return (SQL(text), values)
    }
}

extension SQLStore {
    package func recordSignIn(_ signIn: SignIn, events: [WebhookEvent]) async throws {
        try await write { db in try SignInQueries.append(SignInRecording(signIn, events: events), in: db) }
    }

    package func signIns(_ query: SignInQuery) async throws -> [SignIn] {
        let (statement, values) = SignInQueries.page(query)
        return try await read { try $0.query(statement, values, SignInQueries.signIn) }
    }

    package func signInHistory(tenantID: String, userID: String) async throws -> [SignIn] {
        try await read { try $0.query(SignInQueries.byUser, [.text(tenantID), .text(userID)], SignInQueries.signIn) }
    }

    @discardableResult
    package func deleteSignInHistory(tenantID: String, userID: String) async throws -> Int {
        try await writeOne { try $0.update(SignInQueries.deleteUser, [.text(tenantID), .text(userID)]) }
    }

    package func sweepSignInHistory(tenantID: String, before: Int64) async throws -> Int {
        try await sweepInBatches(SignInQueries.sweep, [.text(tenantID), .integer(before)])
    }
}
