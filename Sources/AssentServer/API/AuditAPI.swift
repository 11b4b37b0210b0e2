import AssentHTTP
import AssentServerCore
import AssentWire

/// `GET /v1/audit` (secret-key Basic auth, like the rest of the server API): a page of the tenant's own audit log,
/// oldest first, filtered by `since` (ISO-8601 or milliseconds), `kind`, and paged by `limit` (1–1000, default 100)
/// and `cursor` (the previous page's `nextCursor`).
struct AuditAPI: Sendable {
    let authenticated: SecretKeyAuthentication
    let audit: AuditLog

    /// The most entries one page returns.
    static let maxLimit = 1000

    func register(in router: inout Router) {
        router.add(.getAuditLog, authenticated { request, _, tenant in try await list(request, tenant) })
    }

    private func list(_ request: HTTPRequest, _ tenant: Tenant) async throws -> HTTPResponse {
        var query = AuditQuery(tenantID: tenant.id)
        if let since = try PathParameter.query(request, "since", maxBytes: 40) {
            guard let milliseconds = Timestamp.milliseconds(since) else {
                throw AssentError(.invalidRequest, "since must be an ISO-8601 UTC time (2026-11-30T06:16:58Z) or milliseconds.")
            }
            query.since = milliseconds
        }
        if let kind = try PathParameter.query(request, "kind", maxBytes: 100) { query.kind = AuditKind(rawValue: kind) }
        if let limit = try PathParameter.query(request, "limit", maxBytes: 10) {
            guard let value = Int(limit), (1...Self.maxLimit).contains(value) else {
                throw AssentError(.invalidRequest, "limit must be a whole number from 1 to \(Self.maxLimit).")
            }
            query.limit = value
        }
        if let cursor = try PathParameter.query(request, "cursor", maxBytes: 20) {
            guard let value = Int64(cursor), value >= 0 else { throw AssentError(.invalidRequest, "cursor is not one this server gave.") }
            query.afterSequence = value
        }
        let entries = try await audit.entries(query)
        return APIResponses.ok(AuditListResponse(
            entries: entries.map(Self.response),
            nextCursor: entries.count == query.limit ? entries.last.map { String($0.sequence) } : nil))
    }

    static func response(_ entry: AuditEntry) -> AuditListResponse.Entry {
        AuditListResponse.Entry(
            sequence: entry.sequence, at: Timestamp.iso8601(milliseconds: entry.at), kind: entry.kind.rawValue,
            actor: entry.actor, subject: entry.subject.isEmpty ? nil : entry.subject, details: entry.details,
            mac: AuditChain.hex(entry.mac))
    }
}
