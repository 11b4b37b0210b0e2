/// Tenants: their names, hashed secrets, key versions and settings. Every method is one atomic, durable unit (see
/// ``ServerStore``).
package protocol TenantStore: Sendable {
    /// Adds a tenant, appending `audit` (when given) to its audit chain in the same transaction; fails with
    /// `constraintViolation` when the id or secret already exists.
    func insertTenant(_ tenant: Tenant, audit: AuditAppend?) async throws
    /// The tenant with this id.
    func tenant(id: String) async throws -> Tenant?
    /// The tenant whose secret key hashes to `secretHash`.
    func tenant(secretHash: [UInt8]) async throws -> Tenant?
    /// All tenants, oldest first.
    func tenants() async throws -> [Tenant]
    /// Replaces a tenant's name, secret hash, key version and settings, appending `audit` (when given) to its audit
    /// chain in the same transaction; false (and nothing appended) when it does not exist.
    func updateTenant(_ tenant: Tenant, audit: AuditAppend?) async throws -> Bool
    /// Reads a tenant's settings, lets `change` change them, and stores them with `audit` appended, in one
    /// transaction no other writer of the tenant interleaves with — so a change made meanwhile (a secret rotated, a
    /// setting saved on another instance) is neither lost nor undone. False when there is no such tenant. `change`
    /// does no I/O and may run again if the transaction is retried; when it throws nothing is written.
    func updateTenantSettings(
        id: String, audit: AuditAppend, _ change: @escaping @Sendable (inout TenantSettings) throws -> Void
    ) async throws -> Bool
}
