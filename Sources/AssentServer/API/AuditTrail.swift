import AssentLog
import AssentServerCore

/// What the HTTP handlers record in the audit log once the change they made has committed: credentials enrolled and
/// removed, activations blocked, unblocked and removed, fraud reports. A failure to record is logged (with the
/// event's kind and subject, nothing secret) and does not turn the committed change into an error.
struct AuditTrail: Sendable {
    let audit: AuditLog
    let logger: Logger

    func record(
        _ tenant: Tenant, _ kind: AuditKind, actor: String, subject: String, details: [String: String] = [:]
    ) async {
        do {
            try await audit.record(tenantID: tenant.id, kind, actor: actor, subject: subject, details: details)
        } catch {
            logger.error("audit entry not recorded", [
                "tenantId": .string(tenant.id), "kind": .string(kind.rawValue), "subject": .string(subject),
                "error": .string(String(describing: error)),
            ])
        }
    }
}
