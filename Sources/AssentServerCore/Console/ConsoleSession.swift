/// A signed-in admin console: one browser's session with one tenant, kept on the server. The browser holds a random
/// session id in a cookie; the store holds only its SHA-256, so a database reader cannot ride a session.
///
/// A session ends at sign-out, when unused for ``ConsoleSessions/Policy/idleSeconds`` (its ``idleExpiresAt`` moves
/// forward as it is used) or at its ``expiresAt`` however busy it is; the sweeper deletes ended sessions.
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

    /// Creates a session record.
    package init(
        idHash: [UInt8], tenantID: String, principal: String, createdAt: Int64, lastSeenAt: Int64, idleExpiresAt: Int64,
        expiresAt: Int64
    ) {
        self.idHash = idHash
        self.tenantID = tenantID
        self.principal = principal
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.idleExpiresAt = idleExpiresAt
        self.expiresAt = expiresAt
    }

    /// Whether it is still signed in at `now`.
    package func isLive(at now: Int64) -> Bool { now < idleExpiresAt && now < expiresAt }
}
