import AssentServerCore
import Foundation

/// Tenants' statements, the same in both dialects.
enum TenantQueries {
    static let insert: SQL = "INSERT INTO tenants (\(StoreRecords.tenantColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    static let byID: SQL = "SELECT \(StoreRecords.tenantColumns) FROM tenants WHERE id = $1"
    static let bySecretHash: SQL = "SELECT \(StoreRecords.tenantColumns) FROM tenants WHERE secret_hash = $1"
    static let all: SQL = "SELECT \(StoreRecords.tenantColumns) FROM tenants ORDER BY created_at, id"
    /// A tenant's settings, holding the row lock in PostgreSQL until the transaction ends.
    static let settingsLocked: SQL = "SELECT settings FROM tenants WHERE id = $1\(postgres: " FOR UPDATE")"
    static let updateSettings: SQL = "UPDATE tenants SET settings = $1 WHERE id = $2"
    static let update: SQL = """
        UPDATE tenants SET name = $1, secret_hash = $2, key_version = $3, settings = $4, secret_version = $5,
            secret_key_ring_version = $6
        WHERE id = $7
        """
}

extension SQLStore {
    package func insertTenant(_ tenant: Tenant, audit: AuditAppend?) async throws {
        let values: [StoreValue] = [
            .text(tenant.id), .text(tenant.name), .blob(tenant.secretHash), .integer(Int64(tenant.keyVersion)),
            .text(try StoreRecords.encode(tenant.settings)), .integer(tenant.createdAt), .integer(Int64(tenant.secretVersion)),
            .integer(Int64(tenant.secretKeyRingVersion)),
        ]
        guard let audit else {
            try await writeOne { try $0.update(TenantQueries.insert, values) }
            return
        }
        try await write { db in
            try db.update(TenantQueries.insert, values)
            try AuditQueries.append(audit, on: db)
        }
    }

    package func tenant(id: String) async throws -> Tenant? {
        try await tenantCache.tenant("id:" + id) {
            try await read { try $0.queryOne(TenantQueries.byID, [.text(id)], StoreRecords.tenant) }
        }
    }

    package func tenant(secretHash: [UInt8]) async throws -> Tenant? {
        try await tenantCache.tenant("hash:" + secretHash.map { String($0, radix: 16) }.joined(separator: ".")) {
            try await read { try $0.queryOne(TenantQueries.bySecretHash, [.blob(secretHash)], StoreRecords.tenant) }
        }
    }

    package func tenants() async throws -> [Tenant] {
        try await read { try $0.query(TenantQueries.all, [], StoreRecords.tenant) }
    }

    package func updateTenant(_ tenant: Tenant, audit: AuditAppend?) async throws -> Bool {
        let values: [StoreValue] = [
            .text(tenant.name), .blob(tenant.secretHash), .integer(Int64(tenant.keyVersion)),
            .text(try StoreRecords.encode(tenant.settings)), .integer(Int64(tenant.secretVersion)),
            .integer(Int64(tenant.secretKeyRingVersion)), .text(tenant.id),
        ]
        defer { tenantCache.clear() }
        let id = tenant.id
        return try await write { db in
            guard try db.update(TenantQueries.update, values) == 1 else { return false }
            try Self.announceTenantChange(db, tenantID: id)
            if let audit { try AuditQueries.append(audit, on: db) }
            return true
        }
    }

    package func updateTenantSettings(
        id: String, audit: AuditAppend, _ change: @escaping @Sendable (inout TenantSettings) throws -> Void
    ) async throws -> Bool {
        defer { tenantCache.clear() }
        return try await write { db in
            guard let stored = try db.queryOne(TenantQueries.settingsLocked, [.text(id)], { try $0.string(0) }) else {
                return false
            }
            var settings: TenantSettings
            do {
                settings = try JSONDecoder().decode(TenantSettings.self, from: Data(stored.utf8))
            } catch {
                throw StoreError(.corrupt, "tenant settings: \(error)")
            }
            try change(&settings)
            try db.update(TenantQueries.updateSettings, [.text(try StoreRecords.encode(settings)), .text(id)])
            try Self.announceTenantChange(db, tenantID: id)
            try AuditQueries.append(audit, on: db)
            return true
        }
    }
}
