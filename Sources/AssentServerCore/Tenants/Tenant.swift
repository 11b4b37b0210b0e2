/// A tenant: one customer application with its own users, secret key and settings.
package struct Tenant: Sendable, Hashable {
    /// Public identifier (the client SDKs' `tenantID`).
    package var id: String
    /// A name for people.
    package var name: String
    /// SHA-256 of the secret API key; the key itself is never stored.
    package var secretHash: [UInt8]
    /// Which derivation of the secret key is current (bumped by rotation).
    package var secretVersion: Int
    /// The master key ring version the secret key was derived from (``MasterKeyRing``); a tenant moves to the
    /// current version at its next secret rotation, and `assent admin master-key retire` refuses a version a tenant
    /// still has here.
    package var secretKeyRingVersion: Int
    /// Tokens are signed with a key derived from the master key and this version; bumping it revokes every
    /// outstanding token of the tenant. (Rotating the secret key does not: tokens are not derived from it.)
    package var keyVersion: Int
    /// Policy and limits.
    package var settings: TenantSettings
    /// Creation time, milliseconds since the epoch.
    package var createdAt: Int64

    /// Creates a tenant record.
    package init(
        id: String, name: String, secretHash: [UInt8], secretVersion: Int, keyVersion: Int, settings: TenantSettings,
        createdAt: Int64, secretKeyRingVersion: Int = 1
    ) {
        self.secretKeyRingVersion = secretKeyRingVersion
        self.id = id
        self.name = name
        self.secretHash = secretHash
        self.secretVersion = secretVersion
        self.keyVersion = keyVersion
        self.settings = settings
        self.createdAt = createdAt
    }
}
