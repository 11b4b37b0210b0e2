/// A user's data as one read (``UserData``), for data-subject requests. One atomic, durable unit (see ``ServerStore``).
package protocol UserDataStore: Sendable {
    /// Everything stored about the user, read in one transaction that also appends `audit` (the export's own entry,
    /// which the answer then includes), so the record of an export and what it returned cannot disagree.
    func userData(tenantID: String, userID: String, audit: AuditAppend?) async throws -> UserData
}
