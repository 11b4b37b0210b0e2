/// Bulk loading of seeded test users (`assent admin seed`, ``Seeder``): whole batches in one transaction each, with
/// statements that insert many rows at a time, so a million users take minutes rather than hours. Every row is
/// inserted unless one with its key exists, so seeding again with the same seed changes nothing.
package protocol SeedStore: Sendable {
    /// Whether the tenant has any user record.
    func tenantHasUsers(tenantID: String) async throws -> Bool
    /// Inserts the batch as one transaction (users first) and returns how many rows of each kind were new.
    func insertSeedBatch(_ batch: SeedBatch) async throws -> SeedCounts
}
