/// Which entries of one tenant's chain to read: oldest first from a cursor (``afterSequence``), or newest first
/// back from one (``newestFirst`` with ``beforeSequence``), within a time range, of one kind and one actor when given.
package struct AuditQuery: Sendable, Equatable {
    /// The tenant.
    package var tenantID: String
    /// Only entries after this sequence (a cursor: the last sequence of the previous page); 0 for the start.
    package var afterSequence: Int64 = 0
    /// Only entries before this sequence (the cursor of a newest-first page: its last sequence); `Int64.max` for
    /// the head.
    package var beforeSequence: Int64 = .max
    /// Only entries at or after this time (milliseconds since the epoch).
    package var since: Int64 = 0
    /// Only entries at or before this time (milliseconds since the epoch).
    package var until: Int64 = .max
    /// Only entries of this kind, when given.
    package var kind: AuditKind?
    /// Only entries by this actor (``AuditEvent/actor``, e.g. `secret-key`), when given.
    package var actor: String?
    /// Newest first instead of oldest first.
    package var newestFirst = false
    /// At most this many entries.
    package var limit: Int = 100

    /// A query over `tenantID`'s chain.
    package init(tenantID: String, afterSequence: Int64 = 0, since: Int64 = 0, kind: AuditKind? = nil, limit: Int = 100) {
        self.tenantID = tenantID
        self.afterSequence = afterSequence
        self.since = since
        self.kind = kind
        self.limit = limit
    }
}
