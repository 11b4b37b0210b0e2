@testable import AssentServerCore
@testable import AssentStorage
import AssentSync
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
