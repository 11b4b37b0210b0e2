/// Bulk loading of seeded test users (`assent admin seed`, ``Seeder``): whole batches in one transaction each, with
/// statements that insert many rows at a time, so a million users take minutes rather than hours. Every row is
/// inserted unless one with its key exists, so seeding again with the same seed changes nothing.
package protocol SeedStore: Sendable {
    /// Whether the tenant has any user record.
    func tenantHasUsers(tenantID: String) async throws -> Bool
    /// Inserts the batch as one transaction (users first) and returns how many rows of each kind were new.
    func insertSeedBatch(_ batch: SeedBatch) async throws -> SeedCounts
    /// Appends `signIns` to the authentication history as one transaction (``SignInSeeder``); how many went in.
    /// Rows have no natural key, so seeding them again adds them again.
    func insertSeedSignIns(_ signIns: [SignIn]) async throws -> Int
    /// Once the last batch is in: settles what a bulk load leaves behind, so that it does not run under whatever is
    /// measured next. PostgreSQL: `VACUUM (ANALYZE)` of the seeded tables (planner statistics up to date, rows marked
    /// all-visible: the autovacuum and autoanalyze the load would trigger have nothing left to do), then a
    /// `CHECKPOINT` when the role may run one (the load's dirty pages written out: the checkpoint its WAL started is
    /// not still spreading writes under the benchmark). SQLite: nothing (its statistics are left as they are, so
    /// its plans do not change).
    func settleSeededTables() async throws
}
