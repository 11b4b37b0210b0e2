import Foundation

/// One stored entry of a tenant's audit chain: the event, its place in the chain and its MAC
/// (see ``AuditKey/mac(of:previous:)``).
package struct AuditEntry: Sendable, Equatable {
    /// The tenant whose chain this is.
    package var tenantID: String
    /// Its place in the tenant's chain: 1, 2, 3, … without gaps.
    package var sequence: Int64
    /// When it happened, in milliseconds since the epoch.
    package var at: Int64
    /// What happened.
    package var kind: AuditKind
    /// Who did it.
    package var actor: String
    /// What it was done to, or empty.
    package var subject: String
    /// The details as stored (JSON text; the MAC covers exactly this).
    package var detailsJSON: String
    /// HMAC-SHA256 over the previous entry's MAC and this entry's content.
    package var mac: [UInt8]

    /// An entry as stored.
    package init(
        tenantID: String, sequence: Int64, at: Int64, kind: AuditKind, actor: String, subject: String,
        detailsJSON: String, mac: [UInt8]
    ) {
        self.tenantID = tenantID
        self.sequence = sequence
        self.at = at
        self.kind = kind
        self.actor = actor
        self.subject = subject
        self.detailsJSON = detailsJSON
        self.mac = mac
    }

    /// The details decoded (empty when they are not a JSON object of strings).
    package var details: [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(detailsJSON.utf8))) ?? [:]
    }
}
