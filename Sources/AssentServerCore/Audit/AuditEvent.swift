import Foundation

/// Something to record in a tenant's audit chain, before the chain gives it a sequence number and a MAC.
///
/// `details` holds only what an operator needs to understand the event — ids, setting names, counts — never a
/// secret, token, key or signature; it is stored as JSON with sorted keys, and the MAC covers that exact text.
package struct AuditEvent: Sendable, Equatable {
    /// The tenant whose chain gets the entry.
    package var tenantID: String
    /// When it happened, in milliseconds since the epoch.
    package var at: Int64
    /// What happened.
    package var kind: AuditKind
    /// Who did it: `cli` (the admin CLI on the database), `secret-key` (the server API with the tenant's secret),
    /// `device` (a device's signed request), `system` (assentd itself), or `console:NAME` later.
    package var actor: String
    /// What it was done to (a user id, authenticator id, activation id), or empty.
    package var subject: String
    /// Non-secret facts about it.
    package var details: [String: String]

    /// An event; `subject` and `details` may be left empty.
    package init(
        tenantID: String, at: Int64, kind: AuditKind, actor: String, subject: String = "", details: [String: String] = [:]
    ) {
        self.tenantID = tenantID
        self.at = at
        self.kind = kind
        self.actor = actor
        self.subject = subject
        self.details = details
    }

    /// `details` as the stored JSON text: keys sorted, slashes unescaped, so the same details always give the same text.
    package var detailsJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A [String: String] always encodes.
        return String(decoding: (try? encoder.encode(details)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
