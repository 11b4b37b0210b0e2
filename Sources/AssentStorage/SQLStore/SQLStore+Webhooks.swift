import AssentServerCore

/// The webhook outbox's statements, the same in both dialects.
enum WebhookQueries {
    /// How long a claimed webhook event is held before it may be handed out again (its delivery outlives the
    /// request timeout by far; an instance that dies mid-delivery leaves it to be retried after this).
    static let lease: Int64 = 20_000
    static let insert: SQL = """
        INSERT INTO webhook_outbox (\(StoreRecords.webhookEventColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
        """
    /// Claims up to $3 events due at $2, leasing each (its next attempt moved to $1) in the statement that hands it
    /// out, so two dispatchers never get the same one. PostgreSQL skips rows another instance is claiming; SQLite's
    /// single writer — also across processes on one file — never has two claims at once.
    static let claimDue: SQL = """
        UPDATE webhook_outbox SET next_attempt_at = $1
        WHERE id IN (
          SELECT id FROM webhook_outbox
          WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $2
          ORDER BY next_attempt_at, created_at LIMIT $3
          \(postgres: "FOR UPDATE SKIP LOCKED"))
        RETURNING \(StoreRecords.webhookEventColumns)
        """
    static let markDelivered: SQL = "UPDATE webhook_outbox SET delivered_at = $1, attempts = attempts + 1 WHERE id = $2"
    /// Retry at $2, or give up at $3 when $2 is NULL (PostgreSQL needs the type of a parameter it sees only beside
    /// NULL).
    static let markFailed: SQL = """
        UPDATE webhook_outbox SET attempts = $1, next_attempt_at = COALESCE($2\(postgres: "::bigint"), next_attempt_at),
          failed_at = CASE WHEN $2\(postgres: "::bigint") IS NULL THEN $3\(postgres: "::bigint") ELSE NULL END,
          last_error = $4
        WHERE id = $5
        """

    /// Queues `events` in the caller's transaction.
    static func enqueue(_ events: [WebhookEvent], in db: some StoreConnection) throws {
        for event in events {
            try db.update(insert, StoreRecords.webhookEventValues(event))
        }
    }
}

extension SQLStore {
    package func dueWebhookEvents(now: Int64, limit: Int) async throws -> [WebhookEvent] {
        try await writeOne { db in
            try db.query(
                WebhookQueries.claimDue, [.integer(now + WebhookQueries.lease), .integer(now), .integer(Int64(limit))],
                StoreRecords.webhookEvent
            ).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }

    package func markWebhookDelivered(id: String, at: Int64) async throws {
        try await writeOne { try $0.update(WebhookQueries.markDelivered, [.integer(at), .text(id)]) }
    }

    package func markWebhookAttemptFailed(
        id: String, attempts: Int, nextAttemptAt: Int64?, error: String, at: Int64
    ) async throws {
        try await writeOne { db in
            try db.update(
                WebhookQueries.markFailed,
                [.integer(Int64(attempts)), .optional(nextAttemptAt), .integer(at), .text(String(error.prefix(500))),
                 .text(id)])
        }
    }
}
