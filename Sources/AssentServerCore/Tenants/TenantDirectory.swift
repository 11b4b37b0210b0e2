import AssentCrypto
import Foundation

/// Creates tenants, hands out and rotates their secret keys, and recognises a tenant by its secret.
///
/// A secret key is derived from the server's master key, the tenant id and the tenant's secret version
/// (HMAC-SHA256), so the database holds only its SHA-256 (a slow hash adds nothing for 256-bit keys) and yet the
/// server can sign webhooks with it, as the official SDKs' webhook verifiers expect. Rotation bumps the version. The
/// master key is the version of the master key ring the tenant records (``Tenant/secretKeyRingVersion``); rotation
/// moves the tenant to the ring's current version.
///
/// Creating a tenant, rotating its secret and changing its settings each append an entry to the tenant's audit chain
/// in the same transaction as the change (``AuditAppend``); `actor` says who asked (``AuditEvent/actor``).
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
    private let keys: MasterKeys
    private let auditKey: AuditKey

    /// Creates a directory over `store`, deriving secrets from the 32-byte `masterKey` (a ring of one).
    package init(store: any TenantStore, clock: WallClock, masterKey: [UInt8]) {
        self.init(store: store, clock: clock, keys: MasterKeys(MasterKeyRing(single: masterKey)))
    }

    /// Creates a directory over `store`, deriving secrets from the master key ring `keys`.
    package init(store: any TenantStore, clock: WallClock, keys: MasterKeys) {
        self.store = store
        self.clock = clock
        self.keys = keys
        auditKey = AuditKey(keys: keys)
    }

    private func audit(_ tenantID: String, _ kind: AuditKind, actor: String, details: [String: String] = [:]) -> AuditAppend {
        AuditAppend(
            AuditEvent(tenantID: tenantID, at: clock.nowMilliseconds(), kind: kind, actor: actor, details: details),
            key: auditKey)
    }

    /// The secret key of `tenant` at its current secret version, from the ring version it records. (Were that
    /// version retired — `retire` refuses while a tenant records it — this would derive from the current version, a
    /// secret the tenant does not hold: a retired version derives nothing.)
    package func secret(of tenant: Tenant) -> String {
        let ring = keys.ring(having: tenant.secretKeyRingVersion)
        return Self.secret(
            tenantID: tenant.id, version: tenant.secretVersion,
            masterKey: ring.activeKey(tenant.secretKeyRingVersion) ?? ring.currentKey)
    }

    private static func secret(tenantID: String, version: Int, masterKey: [UInt8]) -> String {
        "sk_" + Base64.encodeURL(HMACSHA256.authenticate(Array("assent secret key/\(tenantID)/\(version)".utf8), key: masterKey))
    }

    /// The stored form of a secret.
    static func hash(secret: String) -> [UInt8] { SHA256.hash(Array(secret.utf8)) }

    /// Creates a tenant with a new secret key.
    package func create(
        name: String, settings: TenantSettings = TenantSettings(), actor: String = "cli"
    ) async throws -> Credentials {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 200 else {
            throw AssentError(.invalidRequest, "A tenant name must have 1 to 200 characters.")
        }
        let id = UUID().uuidString.lowercased()
        let ring = keys.current
        let secret = Self.secret(tenantID: id, version: 1, masterKey: ring.currentKey)
        let tenant = Tenant(
            id: id, name: trimmed, secretHash: Self.hash(secret: secret), secretVersion: 1, keyVersion: 1,
            settings: settings, createdAt: clock.nowMilliseconds(), secretKeyRingVersion: ring.current)
        try await store.insertTenant(tenant, audit: audit(id, .tenantCreated, actor: actor, details: ["name": trimmed]))
        return Credentials(tenant: tenant, secretKey: secret)
    }

    /// The tenant with this id, or nil.
    package func tenant(id: String) async throws -> Tenant? {
        try await store.tenant(id: id)
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
    package func rotateSecret(tenantID: String, actor: String = "cli") async throws -> Credentials {
        guard var tenant = try await store.tenant(id: tenantID) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        let ring = keys.current
        tenant.secretVersion += 1
        tenant.secretKeyRingVersion = ring.current
        let secret = Self.secret(tenantID: tenant.id, version: tenant.secretVersion, masterKey: ring.currentKey)
        tenant.secretHash = Self.hash(secret: secret)
        var details = ["secretVersion": String(tenant.secretVersion)]
        if ring.current != 1 { details["masterKeyVersion"] = String(ring.current) }
        let entry = audit(tenantID, .secretRotated, actor: actor, details: details)
        guard try await store.updateTenant(tenant, audit: entry) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        return Credentials(tenant: tenant, secretKey: secret)
    }

    /// Replaces a tenant's settings. A change is audited with the names of the settings it changed (never their
    /// values, which include sealed push credentials): as ``AuditKind/pushProviderChanged`` when only the push
    /// provider settings changed, else ``AuditKind/settingsChanged``; a change that changes nothing is not recorded.
    package func updateSettings(
        tenantID: String, actor: String = "cli", _ change: (inout TenantSettings) throws -> Void
    ) async throws -> Tenant {
        guard var tenant = try await store.tenant(id: tenantID) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        let before = tenant.settings
        try change(&tenant.settings)
        let changed = Self.changedSettings(before, tenant.settings)
        var entry: AuditAppend?
        if !changed.isEmpty {
            var details = ["changed": changed.joined(separator: ",")]
            if changed == ["push"] { details["provider"] = tenant.settings.push?.provider.rawValue ?? "none" }
            entry = audit(tenantID, changed == ["push"] ? .pushProviderChanged : .settingsChanged, actor: actor, details: details)
        }
        guard try await store.updateTenant(tenant, audit: entry) else {
            throw AssentError(.notFound, "No tenant with id \(tenantID).")
        }
        return tenant
    }

    /// The names of the top-level settings that differ between `old` and `new`, sorted.
    static func changedSettings(_ old: TenantSettings, _ new: TenantSettings) -> [String] {
        func fields(_ settings: TenantSettings) -> [String: Data] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let data = try? encoder.encode(settings),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return [:] }
            return object.compactMapValues {
                try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed])
            }
        }
        let (a, b) = (fields(old), fields(new))
        return Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    /// Every tenant.
    package func all() async throws -> [Tenant] { try await store.tenants() }
}
