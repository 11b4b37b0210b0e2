/// Each tenant's append-only audit chain (``AuditChain``). Appends to one tenant's chain take turns across every
/// instance sharing the database (SQLite: its single writer; PostgreSQL: a transaction-scoped advisory lock on the
/// tenant's chain), so each entry links to the one before it. Every method is one atomic, durable unit (see
/// ``ServerStore``).
package protocol AuditStore: Sendable {
    /// Appends `append.event` to its tenant's chain, after the current head, and returns the stored entry.
    @discardableResult
    func appendAudit(_ append: AuditAppend) async throws -> AuditEntry

    /// The entries `query` selects, by sequence.
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry]

    /// Every entry of the tenant's chain, by sequence (what verification reads).
    func auditChain(tenantID: String) async throws -> [AuditEntry]

    /// Drops the tenant's entries older than `before` behind a checkpoint (``AuditChain/retention(_:tenantID:before:now:actor:key:)``),
    /// in one transaction holding the chain's lock. Returns how many entries were dropped; throws ``AuditChainBroken``
    /// (changing nothing) when the chain does not verify.
    func pruneAudit(tenantID: String, before: Int64, now: Int64, actor: String, key: AuditKey) async throws -> Int

    /// The ids of the tenants that have audit entries.
    func auditTenants() async throws -> [String]
}
