package import AssentServerCore

/// The push delivery queue's writes in SQLite: several plain statements inside the writer's transaction, which no
/// other writer can interleave with. (PostgreSQL says each of these in one statement to save round trips, with rows
/// as a JSON parameter and several changes as parts of one `WITH` — which SQLite cannot say, and here there are no
/// round trips to save. The reads are shared: `SQLStore+PushDelivery.swift`.)
extension SQLiteStore {
    static let insertTimelineEntry: SQL = """
        INSERT INTO challenge_timeline (tenant_id, challenge_id, at, event, authenticator_id, provider, attempt,
          status, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        """
    static let insertDelivery: SQL = """
        INSERT INTO push_deliveries (id, tenant_id, challenge_id, authenticator_id, provider, created_at,
          expires_at, next_attempt_at, attempts, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
        """
    static let abandon: SQL = "UPDATE challenges SET expires_at = MIN(expires_at, $1) WHERE id = $2 AND tenant_id = $3"
    static let expireQueued: SQL = """
        UPDATE push_deliveries SET state = 'expired', finished_at = $1, claimed_until = NULL
        WHERE challenge_id = $2 AND tenant_id = $3 AND state = 'queued'
        """
    static let due: SQL = """
        SELECT \(StoreRecords.deliveryColumns), a.push_token, a.device_platform, c.state, c.expires_at
        FROM push_deliveries d
        LEFT JOIN authenticators a ON a.id = d.authenticator_id AND a.tenant_id = d.tenant_id
        LEFT JOIN challenges c ON c.id = d.challenge_id AND c.tenant_id = d.tenant_id
        WHERE d.state = 'queued' AND d.next_attempt_at <= $1 AND (d.claimed_until IS NULL OR d.claimed_until <= $1)
        ORDER BY d.next_attempt_at, d.id LIMIT $2
        """
    static let expire: SQL = """
        UPDATE push_deliveries SET state = 'expired', finished_at = $1, claimed_until = NULL,
          last_error = COALESCE(last_error, $2) WHERE id = $3
        """
    static let lease: SQL = "UPDATE push_deliveries SET claimed_until = $1 WHERE id = $2"
    static let recordAttempt: SQL = """
        UPDATE push_deliveries SET state = $1, attempts = $2, next_attempt_at = $3, claimed_until = NULL,
          last_error = $4, finished_at = $5 WHERE id = $6
        """
    static let markStale: SQL = """
        UPDATE authenticators SET errored_at = $1, error_code = $2
        WHERE id = $3 AND tenant_id = $4 AND push_token = $5
        """

    static func append(_ entries: [ChallengeTimelineEntry], in db: SQLiteConnection) throws {
        for e in entries {
            try db.update(
                insertTimelineEntry,
                [.text(e.tenantID), .text(e.challengeID), .integer(e.at), .text(e.event), .optional(e.authenticatorID),
                 .optional(e.provider), .optional(e.attempt), .optional(e.status), .optional(e.detail)])
        }
    }

    package func insertPushChallenge(
        _ challenge: Challenge, maxOpenForUser: Int?, deliveries: [PushDelivery], timeline: [ChallengeTimelineEntry]
    ) async throws -> Bool {
        try await write { db in
            guard try ChallengeQueries.insert(challenge, maxOpenForUser: maxOpenForUser, in: db) else { return false }
            for d in deliveries {
                try db.update(
                    Self.insertDelivery,
                    [.text(d.id), .text(d.tenantID), .text(d.challengeID), .text(d.authenticatorID),
                     .text(d.provider.rawValue), .integer(d.createdAt), .integer(d.expiresAt), .integer(d.nextAttemptAt),
                     .integer(Int64(d.attempts)), .text(d.state.rawValue)])
            }
            try Self.append(timeline, in: db)
            return true
        }
    }

    package func appendTimeline(_ entries: [ChallengeTimelineEntry]) async throws {
        guard !entries.isEmpty else { return }
        try await write { db in try Self.append(entries, in: db) }
    }

    package func abandonChallenge(tenantID: String, id: String, at: Int64, entry: ChallengeTimelineEntry) async throws {
        try await write { db in
            try db.update(Self.abandon, [.integer(at), .text(id), .text(tenantID)])
            try db.update(Self.expireQueued, [.integer(at), .text(id), .text(tenantID)])
            try Self.append([entry], in: db)
        }
    }

    package func claimDuePushDeliveries(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [PushDelivery] {
        try await write { db in
            let due = try db.query(Self.due, [.integer(now), .integer(Int64(limit))]) { row -> (PushDelivery, String?) in
                let delivery = try StoreRecords.claimedDelivery(row)
                let challengeState = row.optionalString(14)
                let challengeExpiry = row.optionalInt64(15) ?? 0
                var ended: String?
                if challengeState == nil {
                    ended = "challenge_gone"
                } else if challengeState != "pending" {
                    ended = "challenge_answered"
                } else if challengeExpiry <= now || delivery.expiresAt <= now {
                    ended = "challenge_expired"
                } else if delivery.pushToken == nil {
                    ended = "push_token_missing"
                }
                return (delivery, ended)
            }
            var claimed: [PushDelivery] = []
            for (delivery, ended) in due {
                if let ended {
                    try db.update(Self.expire, [.integer(now), .text(ended), .text(delivery.id)])
                    try Self.append(
                        [ChallengeTimelineEntry(
                            event: "push.expired", tenantID: delivery.tenantID, challengeID: delivery.challengeID, at: now,
                            authenticatorID: delivery.authenticatorID, provider: delivery.provider.rawValue,
                            attempt: delivery.attempts, detail: ended)],
                        in: db)
                    continue
                }
                try db.update(Self.lease, [.integer(leaseUntil), .text(delivery.id)])
                var lease = delivery
                lease.claimedUntil = leaseUntil
                claimed.append(lease)
            }
            return claimed
        }
    }

    package func recordPushAttempt(
        _ delivery: PushDelivery, sentToken: String?, staleCode: String?, entry: ChallengeTimelineEntry
    ) async throws {
        try await write { db in
            let finished = delivery.state == .queued ? nil : Optional(entry.at)
            try db.update(
                Self.recordAttempt,
                [.text(delivery.state.rawValue), .integer(Int64(delivery.attempts)), .integer(delivery.nextAttemptAt),
                 .optional(delivery.lastError), .optional(finished), .text(delivery.id)])
            if let staleCode, let sentToken {
                try db.update(
                    Self.markStale,
                    [.integer(entry.at), .text(staleCode), .text(delivery.authenticatorID), .text(delivery.tenantID),
                     .text(sentToken)])
            }
            try Self.append([entry], in: db)
        }
    }
}
