/// A signed-in admin console: one browser's session with one tenant, kept on the server. The browser holds a random
/// session id in a cookie; the store holds only its SHA-256, so a database reader cannot ride a session.
///
/// A session ends at sign-out, when unused for ``ConsoleSessions/Policy/idleSeconds`` (its ``idleExpiresAt`` moves
/// forward as it is used) or at its ``expiresAt`` however busy it is — which is never later than the admin token it
/// signed in with expires; the sweeper deletes ended sessions. It also ends with what opened it: the tenant's secret
/// key when that is rotated (``secretVersion``), its admin token when that is revoked, and its tenant.
package struct ConsoleSession: Sendable, Hashable {
    /// SHA-256 of the session id the cookie carries.
    package var idHash: [UInt8]
    /// The tenant signed in to.
    package var tenantID: String
    /// How it signed in: `secret-key`, or `admin-token:<token id>`.
    package var principal: String
    /// Sign-in time, milliseconds since the epoch.
    package var createdAt: Int64
    /// Last use, milliseconds since the epoch.
    package var lastSeenAt: Int64
    /// When it ends unless used before, milliseconds since the epoch.
    package var idleExpiresAt: Int64
    /// When it ends however it is used, milliseconds since the epoch.
    package var expiresAt: Int64
    /// The tenant's ``Tenant/secretVersion`` when it signed in with the secret key; nil for an admin token. The
    /// session lives only until the tenant's secret version passes this one (``isSuperseded(by:)``).
    package var secretVersion: Int?

    /// Creates a session record.
    package init(
        idHash: [UInt8], tenantID: String, principal: String, createdAt: Int64, lastSeenAt: Int64, idleExpiresAt: Int64,
        expiresAt: Int64, secretVersion: Int? = nil
    ) {
        self.idHash = idHash
        self.tenantID = tenantID
        self.principal = principal
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.idleExpiresAt = idleExpiresAt
        self.expiresAt = expiresAt
        self.secretVersion = secretVersion
    }

    /// The principal of a session signed in with the tenant's secret key.
    package static let secretKeyPrincipal = "secret-key"

    /// Whether it is still signed in at `now`.
    package func isLive(at now: Int64) -> Bool { now < idleExpiresAt && now < expiresAt }

    /// Whether `tenant` (as read now) has since replaced the secret key this session signed in with: its secret
    /// version is past the session's, so rotating the key ends the session on every instance that reads the tenant
    /// again. Versions only grow, so a tenant read before the session's version (another instance's cache, up to a
    /// second old) replaced nothing. A session of another tenant, or a secret-key session with no version, never
    /// holds. An admin token's session is ended by revoking or the expiry of its token instead.
    package func isSuperseded(by tenant: Tenant) -> Bool {
        guard tenant.id == tenantID else { return true }
        guard principal == Self.secretKeyPrincipal else { return false }
        guard let secretVersion else { return true }
        return secretVersion < tenant.secretVersion
    }
}
