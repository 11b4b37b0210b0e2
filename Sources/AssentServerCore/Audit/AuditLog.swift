/// The audit log of a server or CLI: appends events to tenants' chains, reads them back, verifies them and applies
/// retention, with the key derived from the master key (``AuditKey``).
///
/// A change and its entry are one: the service that makes a change (``TenantDirectory``, ``UserService``,
/// ``DeviceCredentialService``, ``ActivationService``, ``ChallengeDecisions``) builds the entry with
/// ``entry(tenantID:_:actor:subject:details:)`` and hands it to the store operation that makes the change, which
/// appends it in the same transaction: a crash leaves both or neither. ``record(tenantID:_:actor:subject:details:)``
/// appends on its own, for events that change nothing else (sign-ins, rate-limit summaries, a seed's summary).
package struct AuditLog: Sendable {
    private let store: any AuditStore
    private let key: AuditKey
    private let clock: WallClock

    /// An audit log over `store`, keyed from the 32-byte `masterKey`.
    package init(store: any AuditStore, masterKey: [UInt8], clock: WallClock) {
        self.store = store
        key = AuditKey(masterKey: masterKey)
        self.clock = clock
    }

    /// An audit log over `store`, keyed from the master key ring `keys` (every version verifies, the current one MACs).
    package init(store: any AuditStore, keys: MasterKeys, clock: WallClock) {
        self.store = store
        key = AuditKey(keys: keys)
        self.clock = clock
    }

    /// The event, stamped now and to be sealed with this log's key, for the store operation that makes the change it
    /// records to append in its own transaction.
    package func entry(
        tenantID: String, _ kind: AuditKind, actor: String, subject: String = "", details: [String: String] = [:]
    ) -> AuditAppend {
        AuditAppend(
            AuditEvent(tenantID: tenantID, at: clock.nowMilliseconds(), kind: kind, actor: actor, subject: subject,
                       details: details),
            key: key)
    }

    /// Appends an event that goes with no other change to the tenant's chain, now.
    @discardableResult
    package func record(
        tenantID: String, _ kind: AuditKind, actor: String, subject: String = "", details: [String: String] = [:]
    ) async throws -> AuditEntry {
        try await store.appendAudit(entry(tenantID: tenantID, kind, actor: actor, subject: subject, details: details))
    }

    /// The entries `query` selects.
    package func entries(_ query: AuditQuery) async throws -> [AuditEntry] {
        try await store.auditEntries(query)
    }

    /// A tenant's chain as ``verify(tenantID:)`` found it.
    package struct ChainCheck: Sendable {
        /// Whether the chain is intact, and where it breaks when not.
        package var verification: AuditVerification
        /// The last entry's sequence (nil: no entries), for a later check to compare.
        package var head: Int64?
    }

    /// Checks the tenant's whole chain, and reports its head (the last sequence) so that a later check can tell
    /// whether entries were cut from the end.
    package func verify(tenantID: String) async throws -> ChainCheck {
        let chain = try await store.auditChain(tenantID: tenantID)
        return ChainCheck(verification: AuditChain.verify(chain, tenantID: tenantID, key: key), head: chain.last?.sequence)
    }

    /// Drops the tenant's entries older than `days` days behind a checkpoint; how many were dropped.
    package func prune(tenantID: String, olderThanDays days: Int, actor: String) async throws -> Int {
        let now = clock.nowMilliseconds()
        return try await store.pruneAudit(
            tenantID: tenantID, before: now - Int64(days) * 86_400_000, now: now, actor: actor, key: key)
    }

    /// The tenants that have entries.
    package func tenants() async throws -> [String] { try await store.auditTenants() }
}
