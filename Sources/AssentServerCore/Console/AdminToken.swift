/// A token that signs in to one tenant's admin console (`assent admin token create --tenant ID`), until it expires or
/// is revoked. Only its SHA-256 is stored: the token itself is shown once, when created.
package struct AdminToken: Sendable, Hashable {
    /// A public identifier, for listing and revoking (not a secret).
    package var id: String
    /// The tenant it signs in to; no other.
    package var tenantID: String
    /// SHA-256 of the token.
    package var tokenHash: [UInt8]
    /// A name for people (who or what holds it).
    package var name: String
    /// Creation time, milliseconds since the epoch.
    package var createdAt: Int64
    /// When it stops working, milliseconds since the epoch.
    package var expiresAt: Int64

    /// Creates a token record.
    package init(id: String, tenantID: String, tokenHash: [UInt8], name: String, createdAt: Int64, expiresAt: Int64) {
        self.id = id
        self.tenantID = tenantID
        self.tokenHash = tokenHash
        self.name = name
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether it still signs in at `now`.
    package func isValid(at now: Int64) -> Bool { now < expiresAt }
}
