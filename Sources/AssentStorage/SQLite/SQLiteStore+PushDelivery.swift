import AssentServerCore
import Foundation

extension SQLiteStore: PushDeliveryStore {
    static let deliveryColumns = """
        d.id, d.tenant_id, d.challenge_id, d.authenticator_id, d.provider, d.created_at, d.expires_at, \
        d.next_attempt_at, d.attempts, d.state, d.claimed_until, d.last_error
        """

    static func append(_ entries: [ChallengeTimelineEntry], in db: SQLiteConnection) throws {
        for e in entries {
            try db.run(
                """
                INSERT INTO challenge_timeline (tenant_id, challenge_id, at, event, authenticator_id, provider, attempt,
                  status, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(e.tenantID), .text(e.challengeID), .integer(e.at), .text(e.event), .optional(e.authenticatorID),
                 .optional(e.provider), .optional(e.attempt.map(Int64.init)), .optional(e.status.map(Int64.init)),
                 .optional(e.detail)])
        }
    }

    package func insertPushChallenge(
        _ challenge: Challenge, maxOpenForUser: Int?, deliveries: [PushDelivery], timeline: [ChallengeTimelineEntry]
    ) async throws -> Bool {
        try await writer.write { db in
            guard try Self.insertChallenge(challenge, maxOpenForUser: maxOpenForUser, in: db) else { return false }
            for d in deliveries {
                try db.run(
                    """
                    INSERT INTO push_deliveries (id, tenant_id, challenge_id, authenticator_id, provider, created_at,
                      expires_at, next_attempt_at, attempts, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
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
        try await writer.write { db in try Self.append(entries, in: db) }
    }

    package func abandonChallenge(tenantID: String, id: String, at: Int64, entry: ChallengeTimelineEntry) async throws {
        try await writer.write { db in
            try db.run(
                "UPDATE challenges SET expires_at = MIN(expires_at, ?) WHERE id = ? AND tenant_id = ?",
                [.integer(at), .text(id), .text(tenantID)])
            try db.run(
                """
                UPDATE push_deliveries SET state = 'expired', finished_at = ?, claimed_until = NULL
                WHERE challenge_id = ? AND tenant_id = ? AND state = 'queued'
                """,
                [.integer(at), .text(id), .text(tenantID)])
            try Self.append([entry], in: db)
        }
    }

    package func claimDuePushDeliveries(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [PushDelivery] {
        try await writer.write { db in
            let due = try db.query(
                """
                SELECT \(Self.deliveryColumns), a.push_token, a.device_platform, c.state, c.expires_at
                FROM push_deliveries d
                LEFT JOIN authenticators a ON a.id = d.authenticator_id AND a.tenant_id = d.tenant_id
                LEFT JOIN challenges c ON c.id = d.challenge_id AND c.tenant_id = d.tenant_id
                WHERE d.state = 'queued' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?)
                ORDER BY d.next_attempt_at, d.id LIMIT ?
                """,
                [.integer(now), .integer(now), .integer(Int64(limit))]
            ) { row -> (PushDelivery, String?) in
                var delivery = try StoreRecords.delivery(row)
                delivery.pushToken = row.optionalString(12)
                delivery.devicePlatform = row.optionalString(13)
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
                    try db.run(
                        """
                        UPDATE push_deliveries SET state = 'expired', finished_at = ?, claimed_until = NULL,
                          last_error = COALESCE(last_error, ?) WHERE id = ?
                        """,
                        [.integer(now), .text(ended), .text(delivery.id)])
                    try Self.append(
                        [ChallengeTimelineEntry(
                            event: "push.expired", tenantID: delivery.tenantID, challengeID: delivery.challengeID, at: now,
                            authenticatorID: delivery.authenticatorID, provider: delivery.provider.rawValue,
                            attempt: delivery.attempts, detail: ended)],
                        in: db)
                    continue
                }
                try db.run(
                    "UPDATE push_deliveries SET claimed_until = ? WHERE id = ?", [.integer(leaseUntil), .text(delivery.id)])
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
        try await writer.write { db in
            let finished = delivery.state == .queued ? nil : Optional(entry.at)
            try db.run(
                """
                UPDATE push_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, claimed_until = NULL,
                  last_error = ?, finished_at = ? WHERE id = ?
                """,
                [.text(delivery.state.rawValue), .integer(Int64(delivery.attempts)), .integer(delivery.nextAttemptAt),
                 .optional(delivery.lastError), .optional(finished), .text(delivery.id)])
            if let staleCode, let sentToken {
                try db.run(
                    """
                    UPDATE authenticators SET errored_at = ?, error_code = ?
                    WHERE id = ? AND tenant_id = ? AND push_token = ?
                    """,
                    [.integer(entry.at), .text(staleCode), .text(delivery.authenticatorID), .text(delivery.tenantID),
                     .text(sentToken)])
            }
            try Self.append([entry], in: db)
        }
    }

    package func pushDeliveries(tenantID: String, challengeID: String) async throws -> [PushDelivery] {
        try read { db in
            try db.query(
                """
                SELECT \(Self.deliveryColumns) FROM push_deliveries d
                WHERE d.challenge_id = ? AND d.tenant_id = ? ORDER BY d.created_at, d.id
                """,
                [.text(challengeID), .text(tenantID)], StoreRecords.delivery)
        }
    }

    package func challengeTimeline(tenantID: String, challengeID: String) async throws -> [ChallengeTimelineEntry] {
        try read { db in
            try db.query(
                """
                SELECT event, tenant_id, challenge_id, at, authenticator_id, provider, attempt, status, detail
                FROM challenge_timeline WHERE challenge_id = ? AND tenant_id = ? ORDER BY id
                """,
                [.text(challengeID), .text(tenantID)]
            ) { row in
                ChallengeTimelineEntry(
                    event: try row.string(0), tenantID: try row.string(1), challengeID: try row.string(2), at: row.int64(3),
                    authenticatorID: row.optionalString(4), provider: row.optionalString(5),
                    attempt: row.optionalInt64(6).map(Int.init), status: row.optionalInt64(7).map(Int.init),
                    detail: row.optionalString(8))
            }
        }
    }

    package func sweepPushDeliveries(before: Int64) async throws -> Int {
        try await writer.write { db in
            try db.run("DELETE FROM push_deliveries WHERE state <> 'queued' AND finished_at < ?", [.integer(before)])
                + db.run("DELETE FROM push_deliveries WHERE expires_at < ?", [.integer(before)])
                + db.run("DELETE FROM challenge_timeline WHERE at < ?", [.integer(before)])
        }
    }
}
