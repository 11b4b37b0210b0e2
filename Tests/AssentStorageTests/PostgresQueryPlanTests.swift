@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import AssentWire
import Foundation
import Testing

/// Every statement a push flow runs on PostgreSQL, planned (`EXPLAIN`, with real parameter values) against a
/// database holding thousands of seeded users with their credentials, actions and challenges, after `ANALYZE`: none
/// may read users, challenges, actions or authenticators with a sequential scan, which would grow with the tenant.
@Suite(.serialized) struct PostgresQueryPlanTests {
    static let users = 3_000
    static let scanned = ["users", "challenges", "actions", "authenticators"]

    /// A seeded, analysed database and a connection to it.
    static func seeded() async throws -> PostgresConnection {
        let url = try await PostgresTestServer.start().freshDatabase()
        let store = try await offPool { try PostgresStore(url: url, connections: 2) }
        try await store.insertTenant(StoreTests.tenant())
        let seeder = SeedStoreTests.seeder()
        for start in stride(from: 0, to: users, by: 1_000) {
            _ = try await store.insertSeedBatch(try seeder.batch(start..<min(start + 1_000, users)))
        }
        await store.close()
        return try await offPool {
            let connection = try PostgresConnection(url: url)
            try connection.execute("ANALYZE")
            return connection
        }
    }

    /// The plan's lines that scan one of ``scanned`` sequentially.
    static func sequentialScans(_ sql: SQL, _ values: [StoreValue], on db: PostgresConnection) throws -> [String] {
        let plan = try db.run("EXPLAIN " + sql.postgres, values).rows.map { try $0.string(0) }
        #expect(!plan.isEmpty)
        return plan.filter { line in scanned.contains { line.contains("Seq Scan on \($0) ") || line.hasSuffix("Seq Scan on \($0)") } }
    }

    @Test func `no statement of a push flow scans users, challenges, actions or authenticators`() async throws {
        let db = try await Self.seeded()
        let scans = try await offPool { () -> [String: [String]] in
            let counts = try db.queryOne(
                "SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM challenges), (SELECT count(*) FROM actions)",
                []) { [$0.int64(0), $0.int64(1), $0.int64(2)] }
            #expect(counts == [Int64(Self.users), Int64(4 * Self.users), Int64(5 * Self.users)])
            // Real keys from the middle of the seeded rows.
            let (authenticatorID, userID, publicKey) = try #require(try db.queryOne(
                "SELECT id, user_id, encode(public_key, 'hex') FROM authenticators WHERE verification_method = 'PUSH' ORDER BY id OFFSET 1000 LIMIT 1",
                []) { (try $0.string(0), try $0.string(1), try $0.string(2)) })
            let key = try #require(try db.queryOne(
                "SELECT idempotency_key FROM actions WHERE user_id = $1 LIMIT 1", [.text(userID)]) { try $0.string(0) })
            let challengeID = try #require(try db.queryOne(
                "SELECT id FROM challenges WHERE user_id = $1 LIMIT 1", [.text(userID)]) { try $0.string(0) })
            let now = SeedStoreTests.now + 60_000
            let t1 = StoreValue.text("t1")
            var challenge = Challenge(id: "new-challenge", tenantID: "t1", kind: .push, createdAt: now, expiresAt: now + 60_000)
            challenge.userID = userID
            challenge.idempotencyKey = key
            challenge.actionCode = "signIn"
            let user = User(tenantID: "t1", userID: userID, now: now)
            let action = Action(
                tenantID: "t1", userID: userID, actionCode: "signIn", idempotencyKey: "new-key", state: .challengeRequired,
                now: now)
            let keyBytes = try #require(Self.bytes(hex: publicKey))
            let statements: [(String, SQL, [StoreValue])] = [
                ("action by key", ActionQueries.byKey, [t1, .text(key)]),
                ("action validated", ActionQueries.markValidated, [.integer(now), t1, .text(key)]),
                ("action state", ActionQueries.updateState, [.text("CHALLENGE_SUCCEEDED"), .null, .integer(now), t1, .text(key)]),
                ("user, locked", UserQueries.byIDLocked, [t1, .text(userID)]),
                ("user", UserQueries.byID, [t1, .text(userID)]),
                ("authenticators of a user", CredentialQueries.byUser, [t1, .text(userID)]),
                ("authenticator by key", CredentialQueries.byKey, [t1, .text("PUSH"), .blob(keyBytes)]),
                ("authenticator stamp", CredentialQueries.stampLastVerified, [.integer(now), .text(authenticatorID), t1]),
                ("track insert", PostgresStore.trackInsert, StoreRecords.userValues(user) + StoreRecords.actionValues(action)),
                ("track in one statement", PostgresStore.trackOnce,
                 [t1, .text(userID), .text("u@example.com"), .null, .null, .null, .integer(now)]
                    + StoreRecords.actionValues(action) + [.text("ALLOW")]),
                ("push guard and expiries", PushGuardQueries.guardAndExpiries, [t1, .text(userID), .integer(now - 86_400_000), .integer(now)]),
                ("push start insert", PostgresStore.insertPush,
                 StoreRecords.challengeValues(challenge) + [.integer(5), .text("[]"), .text("[]")]),
                ("challenge by id", ChallengeQueries.byID, [.text(challengeID), t1]),
                ("pending push challenge", ChallengeQueries.pendingPush, [t1, .text(userID), .integer(now), .text(authenticatorID)]),
                ("pending push challenge by key", ChallengeQueries.pendingPushForKey, [t1, .blob(keyBytes), .integer(now), .text("PUSH")]),
                ("answer", PostgresStore.answer,
                 [.text("approved"), .integer(now), .text(authenticatorID), .text(challengeID), t1, .text("{pending}"),
                  .text("CHALLENGE_SUCCEEDED"), .text("PUSH")]),
                ("answer announcement", PostgresStore.announceAnswer,
                 [.text("assent_challenges"), .text("{}"), .text(challengeID), t1, .text("approved"),
                  .text(authenticatorID), .integer(now)]),
                ("console user search", UserDirectoryQueries.search,
                 [t1, .text(String(userID.dropLast(2))), .text(""), .integer(51)]),
                ("console recent challenges", UserDirectoryQueries.recentChallenges, [t1, .text(userID), .integer(20)]),
                ("QR claim", ChallengeQueries.claim,
                 [.text(authenticatorID), .text(userID), .null, .null, .text(challengeID), t1, .integer(now)]),
            ]
            var scans: [String: [String]] = [:]
            for (name, sql, values) in statements {
                let found = try Self.sequentialScans(sql, values, on: db)
                if !found.isEmpty { scans[name] = found }
            }
            return scans
        }
        #expect(scans.isEmpty, "sequential scans: \(scans)")
    }

    @Test func `the console's user search reads the byte-ordered index of user ids, whatever the collation`() async throws {
        let db = try await Self.seeded()
        let plan = try await offPool { () -> [String] in
            let userID = try db.queryOne("SELECT user_id FROM users ORDER BY user_id LIMIT 1 OFFSET 1500", []) {
                try $0.string(0)
            } ?? ""
            let values: [StoreValue] = [.text("t1"), .text(String(userID.dropLast(3))), .text(""), .integer(51)]
            return try db.run("EXPLAIN " + UserDirectoryQueries.search.postgres, values).rows.map { try $0.string(0) }
        }
        #expect(plan.contains { $0.contains("Index Scan using users_by_id_bytes on users") }, "\(plan)")
        #expect(!plan.contains { $0.contains("Sort") || $0.contains("Seq Scan") }, "\(plan)")
    }

    @Test func `the sweeps find the rows they delete through an index, a bounded batch at a time`() async throws {
        let db = try await Self.seeded()
        let plans = try await offPool { () -> [String: [String]] in
            // The seeded challenges all expired minutes after they began, within the day they are kept: the
            // anonymous-QR sweep must not read them to find the (here: no) unclaimed anonymous ones.
            let now = StoreValue.integer(SeedStoreTests.now)
            let dayAgo = StoreValue.integer(SeedStoreTests.now - 86_400_000)
            let statements: [(String, SQL, [StoreValue])] = [
                ("anonymous QR", SweepBatch.delete(
                    "challenges", where: "kind = 'qr' AND state = 'pending' AND user_id IS NULL AND expires_at <= $1"), [now]),
                ("challenges a day old", SweepBatch.delete("challenges", where: "expires_at < $1"), [dayAgo]),
            ]
            var plans: [String: [String]] = [:]
            for (name, sql, values) in statements {
                plans[name] = try db.run("EXPLAIN " + sql.postgres, values).rows.map { try $0.string(0) }
            }
            return plans
        }
        for (name, plan) in plans {
            #expect(!plan.contains { $0.contains("Seq Scan on challenges") }, "\(name): \(plan)")
            #expect(plan.contains { $0.contains("Limit") }, "\(name) deletes a bounded batch: \(plan)")
        }
        #expect(plans["anonymous QR"]?.contains { $0.contains("challenges_unclaimed_qr") } == true, "\(plans)")
    }

    /// A prepared statement runs on a generic plan after a few executions. On a table not yet analysed (a new
    /// database, until autovacuum's first `ANALYZE`), the generic plan of validate's conditional mark once found the
    /// row through `actions_by_user`, reading every action of the user on each validation: seen in a benchmark where
    /// 32 users owned thousands of actions.
    @Test func `validate marks the action found by its key, not by reading its user's actions, on a generic plan`() async throws {
        let url = try await PostgresTestServer.start().freshDatabase()
        let store = try await offPool { try PostgresStore(url: url, connections: 1) }
        try await store.insertTenant(StoreTests.tenant())
        await store.close()
        let plan = try await offPool { () -> [String] in
            let db = try PostgresConnection(url: url)
            try db.execute("""
                INSERT INTO users (tenant_id, user_id, email_verified, phone_number_verified, created_at, updated_at)
                SELECT 't1', 'user-' || u, false, false, 0, 0 FROM generate_series(1, 20) AS u
                """)
            try db.execute("""
                INSERT INTO actions (tenant_id, idempotency_key, user_id, action_code, state, created_at, state_updated_at)
                SELECT 't1', 'key-' || u || '-' || n, 'user-' || u, 'signIn', 'CHALLENGE_SUCCEEDED', n, n
                FROM generate_series(1, 20) AS u, generate_series(1, 300) AS n
                """)
            try db.execute("SET plan_cache_mode = force_generic_plan")
            try db.execute("PREPARE validate AS " + PostgresStore.validate.postgres)
            return try db.run("EXPLAIN EXECUTE validate(1, 't1', 'key-7-150', true, 'user-7', 'signIn')", []).rows
                .map { try $0.string(0) }
        }
        #expect(!plan.contains { $0.contains("actions_by_user") }, "\(plan)")
        #expect(plan.filter { $0.contains("Index Scan using actions_pkey on actions") }.count == 2, "\(plan)")
    }

    @Test func `the plan check sees a sequential scan where no index serves the query`() async throws {
        let db = try await Self.seeded()
        let found = try await offPool {
            try Self.sequentialScans("SELECT user_id FROM users WHERE username LIKE $1", [.text("%7")], on: db)
        }
        #expect(found.count == 1)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let characters = Array(hex.utf8)
        guard characters.count % 2 == 0 else { return nil }
        return stride(from: 0, to: characters.count, by: 2).compactMap { UInt8(String(decoding: characters[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }
}
