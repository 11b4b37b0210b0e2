import AssentCrypto
import Foundation

/// Signs in to the admin console and recognises signed-in browsers.
///
/// - Sign-in takes the tenant's secret key or one of its unexpired admin tokens (both compared by hash, in constant
///   time) and makes a session: 32 random bytes the browser keeps in a cookie; the store keeps their SHA-256. Every
///   attempt, accepted or refused, goes to the ``ConsoleSignInSink``.
/// - A session ends at sign-out, after ``Policy/idleSeconds`` without use, or ``Policy/absoluteSeconds`` after sign-in
///   (or when its admin token expires, if that is sooner). A use moves the idle expiry forward, writing at most once
///   per ``Policy/touchIntervalSeconds``.
/// - A session also ends with what signed it in: rotating the tenant's secret key ends every session the old key
///   signed in (each records the tenant's secret version and every use compares it with the tenant's, as read
///   through the store's tenant cache, so every instance sees it within that cache's second), revoking an admin
///   token ends its sessions (the store deletes them), and a session of a tenant that is gone is no session.
/// - Every form a session posts carries its CSRF token: an HMAC-SHA256 of the session id under a key derived from the
///   master key, so it needs no storage, differs per session, and cannot be made without the session id itself. Forms
///   carry the current master key ring version's token; the previous version's is accepted too, so a page loaded just
///   before a master-key rotation still posts.
package struct ConsoleSessions: Sendable {
    /// The session lifetimes.
    package struct Policy: Sendable, Hashable {
        /// Ends a session unused this long.
        package var idleSeconds: Int64 = 30 * 60
        /// Ends a session this long after sign-in however it is used.
        package var absoluteSeconds: Int64 = 12 * 3600
        /// A use within this long of the last recorded one is not written again.
        package var touchIntervalSeconds: Int64 = 60

        /// The defaults.
        package init() {}
    }

    /// A new session: its id (for the cookie; exists only here) and the tenant.
    package struct SignedIn: Sendable {
        /// The session id the cookie carries.
        package var sessionID: String
        /// The session as stored.
        package var session: ConsoleSession
        /// The tenant signed in to.
        package var tenant: Tenant
    }

    /// A live session and its tenant.
    package struct Current: Sendable {
        /// The session as stored (after this use).
        package var session: ConsoleSession
        /// The tenant signed in to.
        package var tenant: Tenant
        /// The session id, to compute its CSRF token.
        package var sessionID: String
    }

    private let store: any ConsoleStore & TenantStore
    private let tenants: TenantDirectory
    private let tokens: AdminTokens
    private let sink: any ConsoleSignInSink
    private let clock: WallClock
    private let keys: MasterKeys
    /// The lifetimes applied.
    package let policy: Policy

    /// Sessions over `store`, recognising secret keys through `tenants`; `masterKey` keys the CSRF tokens.
    package init(
        store: any ConsoleStore & TenantStore, tenants: TenantDirectory, masterKey: [UInt8], sink: any ConsoleSignInSink,
        clock: WallClock, policy: Policy = Policy()
    ) {
        self.init(
            store: store, tenants: tenants, keys: MasterKeys(MasterKeyRing(single: masterKey)), sink: sink, clock: clock,
            policy: policy)
    }

    /// Sessions over `store`, recognising secret keys through `tenants`; the master key ring `keys` keys the CSRF tokens.
    package init(
        store: any ConsoleStore & TenantStore, tenants: TenantDirectory, keys: MasterKeys, sink: any ConsoleSignInSink,
        clock: WallClock, policy: Policy = Policy()
    ) {
        self.store = store
        self.tenants = tenants
        tokens = AdminTokens(store: store, clock: clock)
        self.sink = sink
        self.clock = clock
        self.policy = policy
        self.keys = keys
    }

    private static func csrfKey(_ masterKey: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticate(Array("assent console csrf key".utf8), key: masterKey)
    }

    private static func csrfToken(sessionID: String, masterKey: [UInt8]) -> String {
        Base64.encodeURL(HMACSHA256.authenticate(Array(sessionID.utf8), key: csrfKey(masterKey)))
    }

    static func hash(_ sessionID: String) -> [UInt8] { SHA256.hash(Array(sessionID.utf8)) }

    /// Signs in with a secret key or an admin token; nil (recorded as refused) when it is neither.
    package func signIn(credential: String, remoteAddress: String) async throws -> SignedIn? {
        let now = clock.nowMilliseconds()
        let text = credential.trimmingCharacters(in: .whitespacesAndNewlines)
        var tenant: Tenant?
        var principal = ConsoleSession.secretKeyPrincipal
        var expiresAt = now + policy.absoluteSeconds * 1000
        if text.hasPrefix(AdminTokens.prefix) {
            if let token = try await tokens.token(secret: text) {
                tenant = try await store.tenant(id: token.tenantID)
                principal = "admin-token:" + token.id
                // A session never outlives the token that signed it in.
                expiresAt = min(expiresAt, token.expiresAt)
            }
        } else {
            tenant = try await tenants.tenant(secret: text)
        }
        guard let tenant else {
            await sink.record(ConsoleSignIn(tenantID: nil, principal: nil, accepted: false, remoteAddress: remoteAddress, at: now))
            return nil
        }
        let sessionID = Base64.encodeURL(SecureRandom.bytes(32))
        let session = ConsoleSession(
            idHash: Self.hash(sessionID), tenantID: tenant.id, principal: principal, createdAt: now, lastSeenAt: now,
            idleExpiresAt: now + policy.idleSeconds * 1000, expiresAt: expiresAt,
            secretVersion: principal == ConsoleSession.secretKeyPrincipal ? tenant.secretVersion : nil)
        try await store.insertConsoleSession(session)
        await sink.record(
            ConsoleSignIn(tenantID: tenant.id, principal: principal, accepted: true, remoteAddress: remoteAddress, at: now))
        return SignedIn(sessionID: sessionID, session: session, tenant: tenant)
    }

    /// The live session with this id, its use recorded; nil when there is none or it has ended.
    package func current(sessionID: String) async throws -> Current? {
        guard !sessionID.isEmpty, sessionID.utf8.count <= 128 else { return nil }
        let hash = Self.hash(sessionID)
        let now = clock.nowMilliseconds()
        guard var session = try await store.consoleSession(idHash: hash), ConstantTime.equals(session.idHash, hash),
              session.isLive(at: now), let tenant = try await store.tenant(id: session.tenantID)
        else { return nil }
        guard !session.isSuperseded(by: tenant) else {
            // Signed in with a secret key that has since been rotated: ended for good (no sign-out is recorded).
            _ = try await store.deleteConsoleSession(idHash: hash)
            return nil
        }
        if now - session.lastSeenAt >= policy.touchIntervalSeconds * 1000 {
            session.lastSeenAt = now
            session.idleExpiresAt = now + policy.idleSeconds * 1000
            guard try await store.touchConsoleSession(idHash: hash, lastSeenAt: now, idleExpiresAt: session.idleExpiresAt)
            else { return nil }
        }
        return Current(session: session, tenant: tenant, sessionID: sessionID)
    }

    /// Ends `current`'s session and tells the sink who signed out (nothing when the session had already ended, as
    /// when two sign-outs race).
    package func signOut(_ current: Current) async throws {
        guard try await store.deleteConsoleSession(idHash: Self.hash(current.sessionID)) else { return }
        await sink.recordSignOut(tenantID: current.session.tenantID, principal: current.session.principal)
    }

    /// The CSRF token of the session with this id.
    package func csrfToken(sessionID: String) -> String {
        Self.csrfToken(sessionID: sessionID, masterKey: keys.current.currentKey)
    }

    /// Whether `token` is the CSRF token of the session with this id under the current ring version or the previous
    /// one (compared in constant time).
    package func isValidCSRFToken(_ token: String?, sessionID: String) -> Bool {
        guard let token, token.utf8.count <= 128 else { return false }
        let ring = keys.current
        return ring.recent.compactMap { ring.activeKey($0) }.contains {
            ConstantTime.equals(Array(token.utf8), Array(Self.csrfToken(sessionID: sessionID, masterKey: $0).utf8))
        }
    }
}
