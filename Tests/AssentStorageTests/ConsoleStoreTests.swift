@testable import AssentServerCore
@testable import AssentStorage
import AssentSync
import AssentTestSupport
import Testing

/// A wall clock a test moves by hand.
final class ConsoleTestTime: Sendable {
    let value = AssentLock<Int64>(ConsoleStoreTests.now)
    var clock: WallClock { WallClock { self.value.withLock { $0 } } }
    func advance(seconds: Int64) { value.withLock { $0 += seconds * 1000 } }
}

/// Records every sign-in and sign-out it is told of.
final class ConsoleSignInRecorder: ConsoleSignInSink {
    let events = AssentLock<[ConsoleSignIn]>([])
    let signOuts = AssentLock<[String]>([])
    func record(_ signIn: ConsoleSignIn) async { events.withLock { $0.append(signIn) } }
    func recordSignOut(tenantID: String, principal: String) async { signOuts.withLock { $0.append("\(tenantID)/\(principal)") } }
}

/// The admin console's tokens and sessions on both stores, and the sign-in rules over them: only hashes stored, a
/// revoked token's sessions ended with it, ended sessions swept, idle and absolute expiry, CSRF tokens per session.
@Suite(.serialized) struct ConsoleStoreTests {
    static let now: Int64 = 1_800_000_000_000

    static func session(_ id: UInt8, principal: String = "secret-key", idle: Int64 = 60_000, absolute: Int64 = 600_000) -> ConsoleSession {
        ConsoleSession(
            idHash: [UInt8](repeating: id, count: 32), tenantID: "t1", principal: principal, createdAt: now, lastSeenAt: now,
            idleExpiresAt: now + idle, expiresAt: now + absolute)
    }

    @Test(arguments: StoreKind.allCases) func `admin tokens round-trip, their hashes are unique, and revoking one ends its sessions`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let token = AdminToken(id: "adt_1", tenantID: "t1", tokenHash: [UInt8](repeating: 7, count: 32), name: "ops", createdAt: Self.now, expiresAt: Self.now + 1000)
        try await store.insertAdminToken(token)
        #expect(try await store.adminToken(tokenHash: token.tokenHash) == token)
        #expect(try await store.adminToken(tokenHash: [UInt8](repeating: 8, count: 32)) == nil)
        var twin = token
        twin.id = "adt_2"
        await #expect(throws: StoreError(.constraintViolation, "")) { try await store.insertAdminToken(twin) }
        var other = token
        other.id = "adt_3"
        other.tenantID = "no-such-tenant"
        other.tokenHash = [UInt8](repeating: 9, count: 32)
        await #expect(throws: StoreError(.constraintViolation, "")) { try await store.insertAdminToken(other) }
        #expect(try await store.adminTokens(tenantID: "t1") == [token])

        try await store.insertConsoleSession(Self.session(1, principal: "admin-token:adt_1"))
        try await store.insertConsoleSession(Self.session(2))
        #expect(try await store.deleteAdminToken(id: "adt_1"))
        #expect(try await store.deleteAdminToken(id: "adt_1") == false)
        #expect(try await store.adminTokens(tenantID: "t1").isEmpty)
        #expect(try await store.consoleSession(idHash: Self.session(1).idHash) == nil)
        #expect(try await store.consoleSession(idHash: Self.session(2).idHash) == Self.session(2))
    }

    @Test(arguments: StoreKind.allCases) func `sessions are touched, ended, and swept once idle or past their absolute expiry`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let live = Self.session(1)
        try await store.insertConsoleSession(live)
        try await store.insertConsoleSession(Self.session(2, idle: 10))
        try await store.insertConsoleSession(Self.session(3, idle: 60_000, absolute: 20))
        try await store.insertConsoleSession(Self.session(4))
        #expect(try await store.touchConsoleSession(idHash: live.idHash, lastSeenAt: Self.now + 5, idleExpiresAt: Self.now + 90_000))
        #expect(try await store.touchConsoleSession(idHash: [UInt8](repeating: 9, count: 32), lastSeenAt: 0, idleExpiresAt: 0) == false)
        #expect(try await store.consoleSession(idHash: live.idHash)?.idleExpiresAt == Self.now + 90_000)
        #expect(try await store.deleteConsoleSession(idHash: Self.session(4).idHash))
        #expect(try await store.deleteConsoleSession(idHash: Self.session(4).idHash) == false)

        let removed = try await store.sweep(now: Self.now + 30, challengesBefore: 0, eventsBefore: 0)
        #expect(removed == 2)
        #expect(try await store.consoleSession(idHash: live.idHash) != nil)
        #expect(try await store.consoleSession(idHash: Self.session(2).idHash) == nil)
        #expect(try await store.consoleSession(idHash: Self.session(3).idHash) == nil)
    }

    @Test(arguments: StoreKind.allCases) func `sign-in takes the secret key or an unexpired admin token of the tenant, and nothing else`(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let time = ConsoleTestTime()
        let masterKey = [UInt8](repeating: 3, count: 32)
        let directory = TenantDirectory(store: store, clock: time.clock, masterKey: masterKey)
        let tenant = try await directory.create(name: "Shop")
        let recorder = ConsoleSignInRecorder()
        let sessions = ConsoleSessions(store: store, tenants: directory, masterKey: masterKey, sink: recorder, clock: time.clock)
        let tokens = AdminTokens(store: store, clock: time.clock)

        let bySecret = try #require(try await sessions.signIn(credential: tenant.secretKey, remoteAddress: "127.0.0.1"))
        #expect(bySecret.tenant.id == tenant.tenant.id && bySecret.session.principal == "secret-key")
        #expect(try await store.consoleSession(idHash: ConsoleSessions.hash(bySecret.sessionID)) != nil)
        #expect(try await sessions.signIn(credential: tenant.secretKey + "x", remoteAddress: "127.0.0.1") == nil)
        #expect(try await sessions.signIn(credential: "", remoteAddress: "127.0.0.1") == nil)
        #expect(try await sessions.signIn(credential: "at_nonsense", remoteAddress: "127.0.0.1") == nil)

        let created = try await tokens.create(tenantID: tenant.tenant.id, name: "ops", lifetimeSeconds: 3600)
        #expect(created.secret.hasPrefix("at_") && created.token.tokenHash == AdminTokens.hash(created.secret))
        #expect(try await store.adminTokens(tenantID: tenant.tenant.id).allSatisfy { $0.tokenHash != Array(created.secret.utf8) })
        let byToken = try #require(try await sessions.signIn(credential: created.secret, remoteAddress: "127.0.0.1"))
        #expect(byToken.session.principal == "admin-token:" + created.token.id)
        await #expect(throws: AssentError(.notFound, "")) { try await tokens.create(tenantID: "nope", name: "") }
        await #expect(throws: AssentError(.invalidRequest, "")) {
            try await tokens.create(tenantID: tenant.tenant.id, name: "", lifetimeSeconds: 0)
        }

        time.advance(seconds: 3600)
        #expect(try await sessions.signIn(credential: created.secret, remoteAddress: "127.0.0.1") == nil, "an expired token")
        let events = recorder.events.withLock { $0 }
        #expect(events.map(\.accepted) == [true, false, false, false, true, false])
        #expect(events.filter(\.accepted).map(\.tenantID) == [tenant.tenant.id, tenant.tenant.id])
    }

    @Test(arguments: StoreKind.allCases) func `a session ends when idle, at its absolute expiry, at sign-out, and when its token is revoked`(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let time = ConsoleTestTime()
        let masterKey = [UInt8](repeating: 4, count: 32)
        let directory = TenantDirectory(store: store, clock: time.clock, masterKey: masterKey)
        let tenant = try await directory.create(name: "Shop")
        var policy = ConsoleSessions.Policy()
        policy.idleSeconds = 600
        policy.absoluteSeconds = 1800
        let recorder = ConsoleSignInRecorder()
        let sessions = ConsoleSessions(
            store: store, tenants: directory, masterKey: masterKey, sink: recorder, clock: time.clock, policy: policy)

        // Idle: used every 500 s it lives on, until the absolute expiry.
        let busy = try #require(try await sessions.signIn(credential: tenant.secretKey, remoteAddress: "a"))
        for _ in 0..<3 {
            time.advance(seconds: 500)
            #expect(try await sessions.current(sessionID: busy.sessionID) != nil)
        }
        time.advance(seconds: 300)
        #expect(try await sessions.current(sessionID: busy.sessionID) == nil, "1800 s after sign-in")

        let idle = try #require(try await sessions.signIn(credential: tenant.secretKey, remoteAddress: "a"))
        time.advance(seconds: 600)
        #expect(try await sessions.current(sessionID: idle.sessionID) == nil, "600 s unused")

        let leaving = try #require(try await sessions.signIn(credential: tenant.secretKey, remoteAddress: "a"))
        let live = try #require(try await sessions.current(sessionID: leaving.sessionID))
        #expect(recorder.signOuts.withLock { $0 }.isEmpty, "sessions that expired were not signed out")
        try await sessions.signOut(live)
        #expect(try await sessions.current(sessionID: leaving.sessionID) == nil)
        try await sessions.signOut(live)
        #expect(recorder.signOuts.withLock { $0 } == ["\(tenant.tenant.id)/secret-key"], "one sign-out recorded, not two")
        #expect(try await sessions.current(sessionID: "") == nil)
        #expect(try await sessions.current(sessionID: "not-a-session") == nil)

        let tokens = AdminTokens(store: store, clock: time.clock)
        let created = try await tokens.create(tenantID: tenant.tenant.id, name: "")
        let byToken = try #require(try await sessions.signIn(credential: created.secret, remoteAddress: "a"))
        try await tokens.revoke(id: created.token.id)
        #expect(try await sessions.current(sessionID: byToken.sessionID) == nil)
        await #expect(throws: AssentError(.notFound, "")) { try await tokens.revoke(id: created.token.id) }
    }

    @Test(arguments: StoreKind.allCases) func `rotating the secret key ends every session it signed in, on every instance`(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let time = ConsoleTestTime()
        let masterKey = [UInt8](repeating: 7, count: 32)
        let directory = TenantDirectory(store: store, clock: time.clock, masterKey: masterKey)
        let tenant = try await directory.create(name: "Shop")
        let other = try await directory.create(name: "Other")
        let recorder = ConsoleSignInRecorder()
        let sessions = ConsoleSessions(store: store, tenants: directory, masterKey: masterKey, sink: recorder, clock: time.clock)
        // A second instance on the same database, which has read the tenant (and so caches it) before the rotation.
        let second = try await fixture.another()
        let secondDirectory = TenantDirectory(store: second, clock: time.clock, masterKey: masterKey)
        let secondSessions = ConsoleSessions(
            store: second, tenants: secondDirectory, masterKey: masterKey, sink: recorder, clock: time.clock)

        let bySecret = try #require(try await sessions.signIn(credential: tenant.secretKey, remoteAddress: "a"))
        let elsewhere = try #require(try await secondSessions.signIn(credential: tenant.secretKey, remoteAddress: "a"))
        let byToken = try #require(try await sessions.signIn(
            credential: try await AdminTokens(store: store, clock: time.clock).create(tenantID: tenant.tenant.id, name: "").secret,
            remoteAddress: "a"))
        let otherTenant = try #require(try await sessions.signIn(credential: other.secretKey, remoteAddress: "a"))
        #expect(try await secondSessions.current(sessionID: bySecret.sessionID) != nil)
        #expect(try await secondSessions.current(sessionID: elsewhere.sessionID) != nil)

        let rotated = try await directory.rotateSecret(tenantID: tenant.tenant.id)
        // The other instance sees the rotation once its tenant cache lapses (about a second), not 12 hours later.
        let deadline = ContinuousClock.now + .seconds(5)
        var ended = false
        while !ended, ContinuousClock.now < deadline {
            ended = try await secondSessions.current(sessionID: bySecret.sessionID) == nil
            if !ended { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(ended, "the other instance ended the session opened with the old secret")
        #expect(try await store.consoleSession(idHash: ConsoleSessions.hash(bySecret.sessionID)) == nil, "and deleted it")
        #expect(try await sessions.current(sessionID: elsewhere.sessionID) == nil, "the instance that rotated")
        #expect(try await secondSessions.current(sessionID: elsewhere.sessionID) == nil)

        #expect(try await sessions.current(sessionID: byToken.sessionID) != nil, "an admin token's session is not the secret's")
        #expect(try await sessions.current(sessionID: otherTenant.sessionID) != nil, "another tenant's session lives on")
        let again = try #require(try await sessions.signIn(credential: rotated.secretKey, remoteAddress: "a"))
        #expect(try await sessions.current(sessionID: again.sessionID) != nil, "the new secret signs in and stays")
        #expect(try await secondSessions.current(sessionID: again.sessionID) != nil)
        // An instance whose cached tenant predates the rotation (as for up to a second) leaves the new session be.
        let third = try await fixture.another()
        let thirdSessions = ConsoleSessions(
            store: third, tenants: TenantDirectory(store: third, clock: time.clock, masterKey: masterKey), masterKey: masterKey,
            sink: recorder, clock: time.clock)
        let before = try await third.tenant(id: tenant.tenant.id)
        #expect(before?.secretVersion == 2)
        let newer = try await directory.rotateSecret(tenantID: tenant.tenant.id)
        let latest = try #require(try await sessions.signIn(credential: newer.secretKey, remoteAddress: "a"))
        #expect(try await thirdSessions.current(sessionID: latest.sessionID) != nil, "read with version 2 or 3: live")
        #expect(try await store.consoleSession(idHash: ConsoleSessions.hash(latest.sessionID)) != nil)
        #expect(try await sessions.signIn(credential: tenant.secretKey, remoteAddress: "a") == nil)
    }

    @Test(arguments: StoreKind.allCases) func `a session signed in with an admin token ends when the token expires`(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let time = ConsoleTestTime()
        let masterKey = [UInt8](repeating: 8, count: 32)
        let directory = TenantDirectory(store: store, clock: time.clock, masterKey: masterKey)
        let tenant = try await directory.create(name: "Shop")
        let sessions = ConsoleSessions(
            store: store, tenants: directory, masterKey: masterKey, sink: ConsoleSignInRecorder(), clock: time.clock)
        let tokens = AdminTokens(store: store, clock: time.clock)

        let created = try await tokens.create(tenantID: tenant.tenant.id, name: "short", lifetimeSeconds: 20)
        let signedIn = try #require(try await sessions.signIn(credential: created.secret, remoteAddress: "a"))
        #expect(signedIn.session.expiresAt <= created.token.expiresAt)
        time.advance(seconds: 19)
        #expect(try await sessions.current(sessionID: signedIn.sessionID) != nil, "19 s: the token still works")
        time.advance(seconds: 1)
        #expect(try await sessions.current(sessionID: signedIn.sessionID) == nil, "20 s: the token expired")
        time.advance(seconds: 5)
        #expect(try await sessions.current(sessionID: signedIn.sessionID) == nil, "25 s")

        // A long-lived token's session keeps the session's own 12-hour limit.
        let long = try await tokens.create(tenantID: tenant.tenant.id, name: "long", lifetimeSeconds: 86_400)
        let longSession = try #require(try await sessions.signIn(credential: long.secret, remoteAddress: "a"))
        #expect(longSession.session.expiresAt == time.value.withLock { $0 } + sessions.policy.absoluteSeconds * 1000)
    }

    @Test(arguments: StoreKind.allCases) func `schema step 17 ends older secret-key sessions and cuts token sessions to their token`(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let location: String
        let rows: [(SQL, [StoreValue])] = [
            ("INSERT INTO tenants (id, name, secret_hash, key_version, secret_version, settings, created_at) VALUES ('t1', 'T', $1, 1, 1, '{}', 1)", [.blob([1])]),
            ("INSERT INTO admin_tokens (id, tenant_id, token_hash, name, created_at, expires_at) VALUES ('adt_1', 't1', $1, '', 1, 5000)", [.blob([2])]),
            ("INSERT INTO admin_tokens (id, tenant_id, token_hash, name, created_at, expires_at) VALUES ('adt_2', 't1', $1, '', 1, 99000)", [.blob([3])]),
        ] + [(1, "secret-key"), (2, "admin-token:adt_1"), (3, "admin-token:adt_2")].map { id, principal in
            ("""
             INSERT INTO console_sessions (id_hash, tenant_id, principal, created_at, last_seen_at, idle_expires_at, expires_at)
             VALUES ($1, 't1', $2, 1, 1, 60000, 50000)
             """, [.blob([UInt8](repeating: UInt8(id), count: 32)), .text(principal)])
        }
        switch kind {
        case .sqlite:
            location = directory.file("before.sqlite")
            let connection = try SQLiteConnection(path: location)
            try SQLiteMigrations.apply(to: connection, steps: SQLiteMigrations.steps.filter { $0.version < 17 })
            for (sql, values) in rows { try connection.update(sql, values) }
        case .postgres:
            location = try await PostgresTestServer.start().freshDatabase(migrated: false)
            try await offPool {
                let connection = try PostgresConnection(url: location)
                try connection.execute("CREATE TABLE assent_schema (version BIGINT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
                for step in PostgresMigrations.steps where step.version < 17 {
                    try connection.execute(step.sql)
                    try connection.execute("INSERT INTO assent_schema (version) VALUES (\(step.version))")
                }
                for (sql, values) in rows { try connection.update(sql, values) }
            }
        }
        let store = try await offPool { try DatabaseLocation(location).open(connections: 2) }
        #expect(try await store.consoleSession(idHash: [UInt8](repeating: 1, count: 32)) == nil, "no secret version: ended")
        #expect(try await store.consoleSession(idHash: [UInt8](repeating: 2, count: 32))?.expiresAt == 5000, "cut to its token")
        #expect(try await store.consoleSession(idHash: [UInt8](repeating: 3, count: 32))?.expiresAt == 50000, "already shorter")
        #expect(try await store.consoleSession(idHash: [UInt8](repeating: 3, count: 32))?.secretVersion == nil)
        #expect(try await store.missingSchemaSteps() == [])
    }

    @Test func `a CSRF token belongs to one session and is refused for another`() async throws {
        let fixture = try await StoreFixture.make(.sqlite)
        defer { withExtendedLifetime(fixture) {} }
        let time = ConsoleTestTime()
        let directory = TenantDirectory(store: fixture.store, clock: time.clock, masterKey: [UInt8](repeating: 5, count: 32))
        let sessions = ConsoleSessions(
            store: fixture.store, tenants: directory, masterKey: [UInt8](repeating: 5, count: 32), sink: ConsoleSignInRecorder(),
            clock: time.clock)
        let first = sessions.csrfToken(sessionID: "session-one")
        #expect(sessions.isValidCSRFToken(first, sessionID: "session-one"))
        #expect(!sessions.isValidCSRFToken(first, sessionID: "session-two"))
        #expect(!sessions.isValidCSRFToken(nil, sessionID: "session-one"))
        #expect(!sessions.isValidCSRFToken("", sessionID: "session-one"))
        #expect(!sessions.isValidCSRFToken(String(first.dropLast()), sessionID: "session-one"))
        let otherKey = ConsoleSessions(
            store: fixture.store, tenants: directory, masterKey: [UInt8](repeating: 6, count: 32), sink: ConsoleSignInRecorder(),
            clock: time.clock)
        #expect(!otherKey.isValidCSRFToken(first, sessionID: "session-one"), "the key comes from the master key")
    }
}
