package import AssentServerCore
import Foundation

/// The push delivery queue's writes in PostgreSQL, shared by every instance, each in one statement (one round trip;
/// SQLite, which has no data-changing statement inside `WITH`, runs the parts one after the other:
/// `SQLiteStore+PushDelivery.swift`). A claim locks due rows with `FOR UPDATE SKIP LOCKED` and leases them
/// (`claimed_until`) before it commits: a row another instance is claiming is skipped, one it has leased is not due,
/// so no two instances (or workers) ever hold the same delivery; a lease that lapses (its instance died mid-send)
/// makes the delivery due again. Rows arrive as one JSON parameter (`json_array_elements`), so a challenge with any
/// number of deliveries and timeline entries is still one prepared statement and one round trip.
extension PostgresStore {
    /// `INSERT INTO challenge_timeline` from the JSON array in parameter `$parameter` (``timelineJSON(_:)``), in
    /// the array's order; `condition` (SQL) can hold the rows back.
    static func insertTimeline(parameter: Int, condition: String = "TRUE") -> String {
        """
        INSERT INTO challenge_timeline (tenant_id, challenge_id, at, event, authenticator_id, provider, attempt, status,
          detail)
        SELECT e->>'tenantID', e->>'challengeID', (e->>'at')::bigint, e->>'event', e->>'authenticatorID',
          e->>'provider', (e->>'attempt')::bigint, (e->>'status')::bigint, e->>'detail'
        FROM json_array_elements($\(parameter)::json) WITH ORDINALITY AS x(e, n) WHERE \(condition) ORDER BY n
        """
    }

    /// Timeline entries as one JSON array (absent optionals become NULL).
    static func timelineJSON(_ entries: [ChallengeTimelineEntry]) throws -> StoreValue {
        .text(String(decoding: try JSONEncoder().encode(entries), as: UTF8.self))
    }

    /// A queued delivery's row, as ``deliveriesJSON(_:)`` sends it.
    private struct DeliveryRow: Encodable {
        var id, tenantID, challengeID, authenticatorID, provider, state: String
        var createdAt, expiresAt, nextAttemptAt: Int64
        var attempts: Int
    }

    /// Queued deliveries as one JSON array for ``insertPushChallenge(_:maxOpenForUser:deliveries:timeline:)``.
    static func deliveriesJSON(_ deliveries: [PushDelivery]) throws -> StoreValue {
        let rows = deliveries.map { d in
            DeliveryRow(
                id: d.id, tenantID: d.tenantID, challengeID: d.challengeID, authenticatorID: d.authenticatorID,
                provider: d.provider.rawValue, state: d.state.rawValue, createdAt: d.createdAt, expiresAt: d.expiresAt,
                nextAttemptAt: d.nextAttemptAt, attempts: d.attempts)
        }
        return .text(String(decoding: try JSONEncoder().encode(rows), as: UTF8.self))
    }

    /// The challenge ($1…$19; refused when its user has $20 open ones, unless $20 is NULL), its deliveries ($21) and
    /// its timeline ($22) in one statement: the deliveries and entries go in only when the challenge did.
    static let insertPush = SQL("""
        WITH c AS (
          INSERT INTO challenges (\(StoreRecords.challengeColumns))
          SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9::bigint, $10::bigint, $11::bigint, $12, $13, $14, $15, $16,
            $17, $18::bytea, $19::boolean
          WHERE $20::bigint IS NULL OR \(ChallengeQueries.openForUser.postgres) < $20::bigint
          RETURNING 1),
        d AS (
          INSERT INTO push_deliveries (id, tenant_id, challenge_id, authenticator_id, provider, created_at,
            expires_at, next_attempt_at, attempts, state)
          SELECT e->>'id', e->>'tenantID', e->>'challengeID', e->>'authenticatorID', e->>'provider',
            (e->>'createdAt')::bigint, (e->>'expiresAt')::bigint, (e->>'nextAttemptAt')::bigint,
            (e->>'attempts')::bigint, e->>'state'
          FROM json_array_elements($21::json) AS x(e) WHERE EXISTS (SELECT 1 FROM c)
          RETURNING 1),
        t AS (\(insertTimeline(parameter: 22, condition: "EXISTS (SELECT 1 FROM c)")) RETURNING 1)
        SELECT (SELECT COUNT(*) FROM c), (SELECT COUNT(*) FROM d), (SELECT COUNT(*) FROM t)
        """)

    package func insertPushChallenge(
        _ challenge: Challenge, maxOpenForUser: Int?, deliveries: [PushDelivery], timeline: [ChallengeTimelineEntry]
    ) async throws -> Bool {
        let cap = challenge.userID == nil ? nil : maxOpenForUser
        let values = StoreRecords.challengeValues(challenge)
            + [.optional(cap), try Self.deliveriesJSON(deliveries), try Self.timelineJSON(timeline)]
        guard cap != nil, let user = challenge.userID else {
            return try await writeOne { db in try db.queryOne(Self.insertPush, values) { $0.int64(0) } == 1 }
        }
        return try await write { db in
            // Concurrent starts for one user take turns (see ``ChallengeQueries/insert(_:maxOpenForUser:in:)``), so
            // the count inside the insert, made after the lock, cannot be passed. BEGIN, the lock, the insert and
            // COMMIT travel in one pipeline: one round trip.
            try ChallengeQueries.lockCap(tenantID: challenge.tenantID, userID: user, in: db)
            return try db.runAndCommit(Self.insertPush.postgres, values).rows.first?.int64(0) == 1
        }
    }

    static let appendTimeline = SQL(insertTimeline(parameter: 1))

    package func appendTimeline(_ entries: [ChallengeTimelineEntry]) async throws {
        guard !entries.isEmpty else { return }
        let json = try Self.timelineJSON(entries)
        try await writeOne { db in try db.update(Self.appendTimeline, [json]) }
    }

    static let abandon = SQL("""
        WITH c AS (
          UPDATE challenges SET expires_at = LEAST(expires_at, $1) WHERE id = $2 AND tenant_id = $3 RETURNING 1),
        d AS (
          UPDATE push_deliveries SET state = 'expired', finished_at = $1, claimed_until = NULL
          WHERE challenge_id = $2 AND tenant_id = $3 AND state = 'queued' RETURNING 1)
        \(insertTimeline(parameter: 4))
        """)

    package func abandonChallenge(tenantID: String, id: String, at: Int64, entry: ChallengeTimelineEntry) async throws {
        let json = try Self.timelineJSON([entry])
        try await writeOne { db in try db.update(Self.abandon, [.integer(at), .text(id), .text(tenantID), json]) }
    }

    /// Locks up to $3 due, unleased deliveries, skipping rows another claimer holds; leases (until $2) the ones still
    /// worth sending; expires (with a timeline entry) those whose challenge ended or whose authenticator or push
    /// token is gone. Both happen before the row locks are released at commit.
    static let claimDue: SQL = """
        WITH due AS (
          SELECT d.id, a.push_token, a.device_platform,
            CASE WHEN c.state IS NULL THEN 'challenge_gone'
                 WHEN c.state <> 'pending' THEN 'challenge_answered'
                 WHEN c.expires_at <= $1 OR d.expires_at <= $1 THEN 'challenge_expired'
                 WHEN a.push_token IS NULL THEN 'push_token_missing' END AS ended
          FROM push_deliveries d
          LEFT JOIN authenticators a ON a.id = d.authenticator_id AND a.tenant_id = d.tenant_id
          LEFT JOIN challenges c ON c.id = d.challenge_id AND c.tenant_id = d.tenant_id
          WHERE d.state = 'queued' AND d.next_attempt_at <= $1 AND (d.claimed_until IS NULL OR d.claimed_until <= $1)
          ORDER BY d.next_attempt_at, d.id LIMIT $3
          FOR UPDATE OF d SKIP LOCKED),
        expired AS (
          UPDATE push_deliveries d SET state = 'expired', finished_at = $1, claimed_until = NULL,
            last_error = COALESCE(d.last_error, due.ended)
          FROM due WHERE d.id = due.id AND due.ended IS NOT NULL
          RETURNING d.tenant_id, d.challenge_id, d.authenticator_id, d.provider, d.attempts, due.ended),
        t AS (
          INSERT INTO challenge_timeline (tenant_id, challenge_id, at, event, authenticator_id, provider, attempt,
            detail)
          SELECT tenant_id, challenge_id, $1, 'push.expired', authenticator_id, provider, attempts, ended
          FROM expired),
        leased AS (
          UPDATE push_deliveries d SET claimed_until = $2
          FROM due WHERE d.id = due.id AND due.ended IS NULL
          RETURNING \(StoreRecords.deliveryColumns), due.push_token, due.device_platform)
        SELECT * FROM leased ORDER BY next_attempt_at, id
        """

    package func claimDuePushDeliveries(now: Int64, leaseUntil: Int64, limit: Int) async throws -> [PushDelivery] {
        try await writeOne { db in
            try db.query(
                Self.claimDue, [.integer(now), .integer(leaseUntil), .integer(Int64(limit))], StoreRecords.claimedDelivery)
        }
    }

    /// The result, the lease's release, the stale mark (only while the authenticator still has the token that was
    /// sent: a device that sent a new one meanwhile is not marked) and the timeline entry, in one statement.
    static let recordAttempt = SQL("""
        WITH d AS (
          UPDATE push_deliveries SET state = $1, attempts = $2, next_attempt_at = $3, claimed_until = NULL,
            last_error = $4, finished_at = $5 WHERE id = $6 RETURNING 1),
        a AS (
          UPDATE authenticators SET errored_at = $7, error_code = $8::text
          WHERE $8::text IS NOT NULL AND id = $9 AND tenant_id = $10 AND push_token = $11::text RETURNING 1)
        \(insertTimeline(parameter: 12))
        """)

    package func recordPushAttempt(
        _ delivery: PushDelivery, sentToken: String?, staleCode: String?, entry: ChallengeTimelineEntry
    ) async throws {
        let finished = delivery.state == .queued ? nil : Optional(entry.at)
        let json = try Self.timelineJSON([entry])
        try await writeOne { db in
            try db.update(
                Self.recordAttempt,
                [.text(delivery.state.rawValue), .integer(Int64(delivery.attempts)), .integer(delivery.nextAttemptAt),
                 .optional(delivery.lastError), .optional(finished), .text(delivery.id), .integer(entry.at),
                 .optional(sentToken == nil ? nil : staleCode), .text(delivery.authenticatorID),
                 .text(delivery.tenantID), .optional(sentToken), json])
        }
    }
}
