/// Tenants: their names, hashed secrets, key versions and settings. Every method is one atomic, durable unit (see
/// ``ServerStore``).
package protocol TenantStore: Sendable {
    /// Adds a tenant; fails with `constraintViolation` when the id or secret already exists.
    func insertTenant(_ tenant: Tenant) async throws
    /// The tenant with this id.
    func tenant(id: String) async throws -> Tenant?
    /// The tenant whose secret key hashes to `secretHash`.
    func tenant(secretHash: [UInt8]) async throws -> Tenant?
    /// All tenants, oldest first.
    func tenants() async throws -> [Tenant]
    /// Replaces a tenant's name, secret hash, key version and settings; false when it does not exist.
    func updateTenant(_ tenant: Tenant) async throws -> Bool
}
