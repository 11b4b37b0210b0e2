import AssentServerCore

/// The audit chain's statements, the same in both dialects.
enum AuditQueries {
    static let columns = "tenant_id, sequence, at, kind, actor, subject, details, mac"
    static let head: SQL = "SELECT sequence, mac FROM audit_entries WHERE tenant_id = $1 ORDER BY sequence DESC LIMIT 1"
    static let insert: SQL = "INSERT INTO audit_entries (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    static let chain: SQL = "SELECT \(columns) FROM audit_entries WHERE tenant_id = $1 ORDER BY sequence"
    static let page: SQL = """
        SELECT \(columns) FROM audit_entries
        WHERE tenant_id = $1 AND sequence > $2 AND sequence < $3 AND at >= $4 AND at <= $5
          AND ($6 = '' OR kind = $6) AND ($7 = '' OR actor = $7)
        ORDER BY sequence LIMIT $8
        """
    static let newestPage: SQL = """
        SELECT \(columns) FROM audit_entries
        WHERE tenant_id = $1 AND sequence > $2 AND sequence < $3 AND at >= $4 AND at <= $5
          AND ($6 = '' OR kind = $6) AND ($7 = '' OR actor = $7)
        ORDER BY sequence DESC LIMIT $8
        """
    static let drop: SQL = "DELETE FROM audit_entries WHERE tenant_id = $1 AND sequence <= $2"
    static let tenants: SQL = "SELECT DISTINCT tenant_id FROM audit_entries ORDER BY tenant_id"

    /// Takes the tenant's chain lock (PostgreSQL: until the transaction ends; SQLite's single writer needs none).
    static func lockChain(_ tenantID: String, on db: some StoreConnection) throws {
        try db.lock("assent audit chain/" + tenantID)
    }

    /// Appends `audit.event` after the chain's head, inside the caller's transaction, holding the chain's lock.
    @discardableResult
    static func append(_ audit: AuditAppend, on db: some StoreConnection) throws -> AuditEntry {
        let tenantID = audit.event.tenantID
        try lockChain(tenantID, on: db)
        let head = try db.queryOne(head, [.text(tenantID)]) { ($0.int64(0), $0.blob(1)) }
        let entry = audit.key.seal(audit.event, sequence: (head?.0 ?? 0) + 1, previous: head?.1 ?? AuditKey.genesis)
        try db.update(insert, [
            .text(entry.tenantID), .integer(entry.sequence), .integer(entry.at), .text(entry.kind.rawValue),
            .text(entry.actor), .text(entry.subject), .text(entry.detailsJSON), .blob(entry.mac),
        ])
        return entry
    }

    static func entry(_ row: some StoreRow) throws -> AuditEntry {
        AuditEntry(
            tenantID: try row.string(0), sequence: row.int64(1), at: row.int64(2), kind: AuditKind(rawValue: try row.string(3)),
            actor: try row.string(4), subject: try row.string(5), detailsJSON: try row.string(6), mac: row.blob(7))
    }
}

extension SQLStore {
    @discardableResult
    package func appendAudit(_ append: AuditAppend) async throws -> AuditEntry {
        try await write { db in try AuditQueries.append(append, on: db) }
    }

    package func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry] {
        let values: [StoreValue] = [
            .text(query.tenantID), .integer(query.afterSequence), .integer(query.beforeSequence), .integer(query.since),
            .integer(query.until), .text(query.kind?.rawValue ?? ""), .text(query.actor ?? ""),
            .integer(Int64(max(0, query.limit))),
        ]
        let statement = query.newestFirst ? AuditQueries.newestPage : AuditQueries.page
        return try await read { try $0.query(statement, values, AuditQueries.entry) }
    }

    package func auditChain(tenantID: String) async throws -> [AuditEntry] {
        try await read { try $0.query(AuditQueries.chain, [.text(tenantID)], AuditQueries.entry) }
    }

    package func pruneAudit(tenantID: String, before: Int64, now: Int64, actor: String, key: AuditKey) async throws -> Int {
        try await write { db in
            try AuditQueries.lockChain(tenantID, on: db)
            let entries = try db.query(AuditQueries.chain, [.text(tenantID)], AuditQueries.entry)
            guard let plan = try AuditChain.retention(
                entries, tenantID: tenantID, before: before, now: now, actor: actor, key: key)
            else { return 0 }
            let dropped = try db.update(AuditQueries.drop, [.text(tenantID), .integer(plan.dropThrough)])
            // The head is read before the delete took the rows, so the checkpoint links to the newest entry even
            // when that one was dropped too.
            let head = entries.last!
            let checkpoint = key.seal(plan.checkpoint, sequence: head.sequence + 1, previous: head.mac)
            try db.update(AuditQueries.insert, [
                .text(checkpoint.tenantID), .integer(checkpoint.sequence), .integer(checkpoint.at),
                .text(checkpoint.kind.rawValue), .text(checkpoint.actor), .text(checkpoint.subject),
                .text(checkpoint.detailsJSON), .blob(checkpoint.mac),
            ])
            return dropped
        }
    }

    package func auditTenants() async throws -> [String] {
        try await read { try $0.query(AuditQueries.tenants, []) { try $0.string(0) } }
    }
}
