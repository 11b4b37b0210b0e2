@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import AssentWire
import Testing

/// The authentication history on SQLite and PostgreSQL (``SignInHistoryStore``): an answer's row and webhook event
/// commit with the answer or not at all, expiries are written once by the expiry count, pages are newest first and
/// filter and page the same way whatever the filters, the retention sweep and a user's erasure delete exactly their
/// rows, and the pages search an index.
@Suite(.serialized) struct SignInHistoryStoreTests {
    static func row(_ at: Int64, user: String = "u", outcome: SignIn.Outcome = .approved, method: String = "push",
                    action: String? = "signIn", tenant: String = "t1") -> SignIn {
        var signIn = SignIn(tenantID: tenant, at: at, userID: user, method: method, outcome: outcome,
                            reason: outcome == .refused ? "factor_required" : nil)
        signIn.actionCode = action
        signIn.challengeID = "c-\(at)-\(user)"
        return signIn
    }

    static func recording(_ challenge: Challenge, at: Int64, outcome: SignIn.Outcome) -> SignInRecording {
        let signIn = SignIn(challenge, userID: challenge.userID ?? "u", at: at, outcome: outcome, reason: nil, credentialID: "d1")
        let event = WebhookEvent(id: "e-\(challenge.id)", tenantID: "t1", type: "sign_in.completed", body: "{}", createdAt: at)
        return SignInRecording(signIn, events: [event])
    }

    static func outbox(_ store: any ServerStore, at: Int64) async throws -> [String] {
        try await store.dueWebhookEvents(now: at + 1_000_000, limit: 100).map(\.id).sorted()
    }

    @Test(arguments: StoreKind.allCases)
    func `an answer writes its row and event with it, and a refused answer writes neither`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        let approved = StoreTests.pushChallenge("c1", now: 10)
        let denied = StoreTests.pushChallenge("c2", now: 10)
        #expect(try await store.insertChallenge(approved, maxOpenForUser: nil))
        #expect(try await store.insertChallenge(denied, maxOpenForUser: nil))

        let first = try await store.answerChallenge(
            tenantID: "t1", id: "c1", from: [.pending], approved: true, authenticatorID: "d1", verificationMethod: .push,
            now: 500, pushGuardOf: "u", recording: Self.recording(approved, at: 500, outcome: .approved))
        #expect(first.challenge?.state == .approved)
        // Answered already: nothing more is recorded.
        let again = try await store.answerChallenge(
            tenantID: "t1", id: "c1", from: [.pending], approved: false, authenticatorID: "d1", verificationMethod: .push,
            now: 600, pushGuardOf: nil, recording: Self.recording(approved, at: 600, outcome: .declined))
        #expect(again.challenge == nil)
        // The fraud report's transaction carries its row too.
        let guards = PushGuards(store: store, clock: ServerTestClock().wallClock, webhooks: nil)
        let authenticator = try #require(try await store.authenticators(tenantID: "t1", userID: "u").first)
        let change = try #require(guards.fraudReport(tenant: StoreTests.tenant(), challenge: denied, authenticator: authenticator, now: 700))
        var fraud = Self.recording(denied, at: 700, outcome: .declined)
        fraud.signIn.reason = "fraud_reported"
        #expect(try await store.answerChallenge(
            tenantID: "t1", id: "c2", from: [.pending], approved: false, authenticatorID: "d1", verificationMethod: .push,
            now: 700, changing: change, audit: nil, recording: fraud)?.state == .denied)

        let rows = try await store.signIns(SignInQuery(tenantID: "t1"))
        #expect(rows.map(\.challengeID) == ["c2", "c1"])
        #expect(rows.map(\.outcome) == [.declined, .approved] && rows.map(\.reason) == ["fraud_reported", nil])
        #expect(rows[1].verificationMilliseconds == 490 && rows[1].credentialID == "d1" && rows[1].actionCode == "signIn")
        #expect(try await Self.outbox(store, at: 700) == ["e-c1", "e-c2"])
    }

    @Test(arguments: StoreKind.allCases)
    func `an answer whose row cannot be written is not recorded at all`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        let challenge = StoreTests.pushChallenge("c1", now: 10)
        #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        let refuse: [String] = switch kind {
        case .sqlite: ["CREATE TRIGGER refuse BEFORE INSERT ON sign_in_history BEGIN SELECT RAISE(ABORT, 'refused'); END"]
        case .postgres: [
            "CREATE OR REPLACE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
            "CREATE TRIGGER refuse BEFORE INSERT ON sign_in_history FOR EACH ROW EXECUTE FUNCTION refuse()"]
        }
        try await AuditStoreTests.tamper(fixture, refuse)
        await #expect(throws: (any Error).self) {
            _ = try await store.answerChallenge(
                tenantID: "t1", id: "c1", from: [.pending], approved: true, authenticatorID: "d1",
                verificationMethod: .push, now: 500, pushGuardOf: "u",
                recording: Self.recording(challenge, at: 500, outcome: .approved))
        }
        #expect(try await store.challenge(tenantID: "t1", id: "c1")?.state == .pending)
        #expect(try await Self.outbox(store, at: 500).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func `expiries with a user are written once, by the expiry count, with their events`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let other = try await fixture.another()
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        #expect(try await store.countExpiredChallenges(through: 100) == [:])
        var open = StoreTests.pushChallenge("p-open", now: 200)
        open.ipAddress = "198.51.100.7"
        #expect(try await store.insertChallenge(open, maxOpenForUser: nil))
        #expect(try await store.insertChallenge(
            Challenge(id: "q-anon", tenantID: "t1", kind: .qrCode, createdAt: 200, expiresAt: 1200), maxOpenForUser: nil))
        let events: @Sendable (SignIn) -> [WebhookEvent] = { signIn in
            [WebhookEvent(id: "e-\(signIn.challengeID ?? "")", tenantID: signIn.tenantID, type: "sign_in.completed",
                          body: "{}", createdAt: signIn.at)]
        }
        _ = try await other.countExpiredChallenges(through: 5000, signInEvents: events)
        _ = try await store.countExpiredChallenges(through: 6000, signInEvents: events)
        #expect(try await Self.outbox(store, at: 6000) == ["e-p-open"])
        let rows = try await store.signIns(SignInQuery(tenantID: "t1"))
        #expect(rows.count == 1)
        #expect(rows.first?.challengeID == "p-open" && rows.first?.outcome == .expired && rows.first?.reason == "expired")
        #expect(rows.first?.at == 1200 && rows.first?.ipAddress == "198.51.100.7" && rows.first?.verificationMilliseconds == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func `pages are newest first and filter and continue by cursor alike`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        try await store.insertTenant(StoreTests.tenant(id: "t2", secret: 2))
        var rows: [SignIn] = []
        for index in 0..<60 {
            // Three rows share each millisecond: the cursor must tell them apart.
            rows.append(Self.row(
                Int64(1000 + index / 3), user: "u\(index % 4)", outcome: SignIn.Outcome.allCases[index % 4],
                method: index % 5 == 0 ? "qr" : "push", action: ["signIn", "payment", nil][index % 3]))
        }
        for row in rows { try await store.recordSignIn(row, events: []) }
        try await store.recordSignIn(Self.row(1010, tenant: "t2"), events: [])
        let all = try await store.signIns(SignInQuery(tenantID: "t1", limit: 1000))
        #expect(all.count == 60 && all.allSatisfy { $0.tenantID == "t1" })
        #expect(zip(all, all.dropFirst()).allSatisfy { ($0.at, $0.id) > ($1.at, $1.id) })
        var filters: [SignInQuery] = []
        for build in [{ (q: inout SignInQuery) in q.userID = "u1" }, { $0.outcome = .refused }, { $0.method = "qr" },
                      { $0.actionCode = "payment" }, { $0.from = 1005; $0.to = 1012 },
                      { $0.userID = "u2"; $0.outcome = .expired; $0.from = 1003 }] {
            var query = SignInQuery(tenantID: "t1", limit: 4)
            build(&query)
            filters.append(query)
        }
        for var query in filters {
            let expected = all.filter { row in
                (query.userID == nil || row.userID == query.userID) && (query.outcome == nil || row.outcome == query.outcome)
                    && (query.method == nil || row.method == query.method)
                    && (query.actionCode == nil || row.actionCode == query.actionCode)
                    && (query.from.map { row.at >= $0 } ?? true) && (query.to.map { row.at < $0 } ?? true)
            }
            var paged: [SignIn] = []
            while true {
                let page = try await store.signIns(query)
                paged += page
                guard page.count == query.limit, let last = page.last else { break }
                query.after = SignInCursor(last)
            }
            #expect(!expected.isEmpty)
            #expect(paged == expected, "\(query)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func `the retention sweep and a user's erasure delete exactly their rows`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = fixture.store
        try await store.insertTenant(StoreTests.tenant(id: "t2", secret: 2))
        // More than a sweep batch, to cross batches.
        let count = SweepBatch.size * 2 + 17
        try await _ = store.insertSeedSignIns((0..<count).map { Self.row(Int64($0), user: "u\($0 % 3)") })
        try await store.recordSignIn(Self.row(5, tenant: "t2"), events: [])
        #expect(try await store.sweepSignInHistory(tenantID: "t1", before: 1000) == 1000)
        let left = try await store.signIns(SignInQuery(tenantID: "t1", limit: 10_000))
        #expect(left.count == count - 1000 && left.allSatisfy { $0.at >= 1000 })
        #expect(try await store.signIns(SignInQuery(tenantID: "t2")).count == 1, "another tenant's rows stay")
        let u1 = try await store.signInHistory(tenantID: "t1", userID: "u1")
        #expect(!u1.isEmpty && u1.allSatisfy { $0.userID == "u1" })
        #expect(try await store.deleteSignInHistory(tenantID: "t1", userID: "u1") == u1.count)
        #expect(try await store.signInHistory(tenantID: "t1", userID: "u1").isEmpty)
        #expect(try await store.signIns(SignInQuery(tenantID: "t1", limit: 10_000)).count == count - 1000 - u1.count)
    }

    @Test func `each page's statement searches an index on SQLite`() async throws {
        let fixture = try await StoreFixture.make(.sqlite)
        let connection = try SQLiteConnection(path: fixture.location)
        var queries: [(SignInQuery, String)] = []
        var query = SignInQuery(tenantID: "t1")
        queries.append((query, "sign_in_history_by_time"))
        query.userID = "u"
        query.after = SignInCursor(at: 5, id: 9)
        queries.append((query, "sign_in_history_by_user"))
        query = SignInQuery(tenantID: "t1")
        query.outcome = .refused
        queries.append((query, "sign_in_history_by_outcome"))
        query = SignInQuery(tenantID: "t1")
        query.actionCode = "payment"
        query.from = 5
        queries.append((query, "sign_in_history_by_action"))
        for (query, index) in queries {
            let (sql, values) = SignInQueries.page(query)
            let plan = try connection.query(SQL(stringLiteral: "EXPLAIN QUERY PLAN " + sql.sqlite), values) { try $0.string(3) }
            #expect(plan.contains { $0.contains("USING INDEX \(index)") || $0.contains("USING COVERING INDEX \(index)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("USE TEMP B-TREE") }, "no sort: \(plan)")
        }
    }
}

/// The authentication history's pages on PostgreSQL, planned (`EXPLAIN`, real values) over 60,000 seeded rows after
/// `ANALYZE`: none reads the table sequentially, which would grow with the tenant's history.
@Suite(.serialized) struct SignInHistoryPlanTests {
    @Test func `no page of the history scans the table on PostgreSQL`() async throws {
        let url = try await PostgresTestServer.start().freshDatabase()
        let store = try await offPool { try PostgresStore(url: url, connections: 2) }
        try await store.insertTenant(StoreTests.tenant())
        let seeder = SignInSeeder(tenantID: "t1", count: 60_000, users: 2_000, days: 30, now: 40 * 86_400_000)
        for start in stride(from: 0, to: 60_000, by: 10_000) {
            _ = try await store.insertSeedSignIns(seeder.batch(start..<start + 10_000))
        }
        await store.close()
        var queries: [SignInQuery] = []
        for build in [{ (_: inout SignInQuery) in }, { $0.userID = "seed-user-17" }, { $0.outcome = .refused },
                      { $0.actionCode = "payment"; $0.outcome = .declined },
                      { $0.from = seeder.at(30_000); $0.to = seeder.at(30_500) },
                      { $0.userID = "seed-user-17"; $0.after = SignInCursor(at: seeder.at(30_000), id: 30_000) }] {
            var query = SignInQuery(tenantID: "t1")
            build(&query)
            queries.append(query)
        }
        let planned = queries
        let plans = try await offPool { () -> [[String]] in
            let db = try PostgresConnection(url: url)
            try db.execute("ANALYZE sign_in_history")
            return try planned.map { query in
                let (sql, values) = SignInQueries.page(query)
                return try db.run("EXPLAIN " + sql.postgres, values).rows.map { try $0.string(0) }
            }
        }
        for (query, plan) in zip(queries, plans) {
            #expect(!plan.isEmpty)
            #expect(!plan.contains { $0.contains("Seq Scan on sign_in_history") }, "\(query): \(plan)")
        }
    }
}
