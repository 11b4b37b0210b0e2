import AssentCrypto
import Foundation

/// Creates tenants, hands out and rotates their secret keys, and recognises a tenant by its secret.
///
/// A secret key is derived from the server's master key, the tenant id and the tenant's secret version
/// (HMAC-SHA256), so the database holds only its SHA-256 (a slow hash adds nothing for 256-bit keys) and yet the
/// server can sign webhooks with it, as the official SDKs' webhook verifiers expect. Rotation bumps the version.
package struct TenantDirectory: Sendable {
    /// A tenant together with its secret key, which exists only in this value and is shown once.
    package struct Credentials: Sendable {
        /// The tenant as stored.
        package var tenant: Tenant
        /// The secret API key.
        package var secretKey: String
    }

    private let store: any TenantStore
    private let clock: WallClock
    private let masterKey: [UInt8]

    /// Creates a directory over `store`, deriving secrets from the 32-byte `masterKey`.
    package init(store: any TenantStore, clock: WallClock, masterKey: [UInt8]) {
        self.store = store
        self.clock = clock
        self.masterKey = masterKey
    }

    /// The secret key of `tenant` at its current secret version.
    package func secret(of tenant: Tenant) -> String {
        secret(tenantID: tenant.id, version: tenant.secretVersion)
    }

    private func secret(tenantID: String, version: Int) -> String {
        "sk_" + Base64.encodeURL(HMACSHA256.authenticate(Array("assent secret key/\(tenantID)/\(version)".utf8), key: masterKey))
    }

    /// The stored form of a secret.
    static func hash(secret: String) -> [UInt8] { SHA256.hash(Array(secret.utf8)) }

    /// Creates a tenant with a new secret key.
    package func create(name: String, settings: TenantSettings = TenantSettings()) async throws -> Credentials {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 200 else {
            throw AssentError(.invalidRequest, "A tenant name must have 1 to 200 characters.")
        }
        let id = UUID().uuidString.lowercased()
        let secret = secret(tenantID: id, version: 1)
        let tenant = Tenant(
            id: id, name: trimmed, secretHash: Self.hash(secret: secret), secretVersion: 1, keyVersion: 1,
            settings: settings, createdAt: clock.nowMilliseconds())
        try await store.insertTenant(tenant)
        return Credentials(tenant: tenant, secretKey: secret)
    }

    /// The tenant whose secret key this is, or nil.
    package func tenant(secret: String) async throws -> Tenant? {
        guard !secret.isEmpty, secret.utf8.count <= 512 else { return nil }
        let hash = Self.hash(secret: secret)
        guard let tenant = try await store.tenant(secretHash: hash),
              ConstantTime.equals(tenant.secretHash, hash)
        else { return nil }
        return tenant
    }

    /// Replaces a tenant's secret key; the old one stops working at once.
    package func rotateSecret(tenantID: String) async throws -> Credentials {
        guard var tenant = try await store.tenant(id: tenantID) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        tenant.secretVersion += 1
        let secret = secret(of: tenant)
        tenant.secretHash = Self.hash(secret: secret)
        guard try await store.updateTenant(tenant) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        return Credentials(tenant: tenant, secretKey: secret)
    }

    /// Replaces a tenant's settings.
    package func updateSettings(tenantID: String, _ change: (inout TenantSettings) throws -> Void) async throws -> Tenant {
        guard var tenant = try await store.tenant(id: tenantID) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        try change(&tenant.settings)
        guard try await store.updateTenant(tenant) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        return tenant
    }

    /// Every tenant.
    package func all() async throws -> [Tenant] { try await store.tenants() }
}
