import AssentCrypto
import Foundation

/// Creates tenants, hands out and rotates their secret keys, and recognises a tenant by its secret.
/// Secrets are 256-bit random strings; only their SHA-256 is stored (a slow hash adds nothing for keys this long).
public struct TenantDirectory: Sendable {
    /// A tenant together with its secret key, which exists only in this value and is shown once.
    public struct Credentials: Sendable {
        /// The tenant as stored.
        public var tenant: Tenant
        /// The secret API key.
        public var secretKey: String
    }

    private let store: any Store
    private let clock: WallClock

    /// Creates a directory over `store`.
    public init(store: any Store, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// A fresh secret key.
    static func newSecret() -> String { "sk_" + Base64.encodeURL(SecureRandom.bytes(32)) }

    /// The stored form of a secret.
    static func hash(secret: String) -> [UInt8] { SHA256.hash(Array(secret.utf8)) }

    /// Creates a tenant with a new secret key.
    public func create(name: String, settings: TenantSettings = TenantSettings()) async throws -> Credentials {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 200 else {
            throw AssentError(.invalidRequest, "A tenant name must have 1 to 200 characters.")
        }
        let secret = Self.newSecret()
        let tenant = Tenant(
            id: UUID().uuidString.lowercased(), name: trimmed, secretHash: Self.hash(secret: secret), keyVersion: 1,
            settings: settings, createdAt: clock.nowMilliseconds())
        try await store.insertTenant(tenant)
        return Credentials(tenant: tenant, secretKey: secret)
    }

    /// The tenant whose secret key this is, or nil.
    public func tenant(secret: String) async throws -> Tenant? {
        guard !secret.isEmpty, secret.utf8.count <= 512 else { return nil }
        let hash = Self.hash(secret: secret)
        guard let tenant = try await store.tenant(secretHash: hash),
              ConstantTime.equals(tenant.secretHash, hash)
        else { return nil }
        return tenant
    }

    /// Replaces a tenant's secret key; the old one stops working at once.
    public func rotateSecret(tenantID: String) async throws -> Credentials {
        guard var tenant = try await store.tenant(id: tenantID) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        let secret = Self.newSecret()
        tenant.secretHash = Self.hash(secret: secret)
        guard try await store.updateTenant(tenant) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        return Credentials(tenant: tenant, secretKey: secret)
    }

    /// Replaces a tenant's settings.
    public func updateSettings(tenantID: String, _ change: (inout TenantSettings) throws -> Void) async throws -> Tenant {
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
    public func all() async throws -> [Tenant] { try await store.tenants() }
}
