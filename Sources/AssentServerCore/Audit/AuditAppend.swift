/// An event to append to its tenant's chain together with the change it records, in the same transaction
/// (``TenantStore/insertTenant(_:audit:)``, ``UserStore/deleteUser(tenantID:userID:audit:events:)`` and every other
/// store operation that takes one): nothing acknowledged is unaudited, nothing audited was undone.
package struct AuditAppend: Sendable {
    /// What to record.
    package var event: AuditEvent
    /// The chain's key.
    package var key: AuditKey

    /// `event`, to be sealed with `key`.
    package init(_ event: AuditEvent, key: AuditKey) {
        self.event = event
        self.key = key
    }
}
