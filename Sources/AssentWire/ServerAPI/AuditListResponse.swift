/// `GET /v1/audit`: a page of the tenant's audit log, oldest first.
public struct AuditListResponse: Codable, Sendable, Hashable, WireSchema {
    /// One audit entry.
    public struct Entry: Codable, Sendable, Hashable, WireSchema {
        /// Its place in the tenant's chain (1, 2, 3, …).
        public var sequence: Int64
        /// When it happened (ISO-8601).
        public var at: String
        /// What happened, e.g. `tenant.secret_rotated`.
        public var kind: String
        /// Who did it: `cli`, `secret-key`, `device`, `system`.
        public var actor: String
        /// What it was done to (a user, authenticator or activation id), when anything.
        public var subject: String?
        /// Non-secret facts about it.
        public var details: [String: String]
        /// The entry's HMAC-SHA256 over the previous entry's MAC and its content (hex).
        public var mac: String

        /// An entry as the server reports it.
        public init(
            sequence: Int64, at: String, kind: String, actor: String, subject: String?, details: [String: String],
            mac: String
        ) {
            self.sequence = sequence
            self.at = at
            self.kind = kind
            self.actor = actor
            self.subject = subject
            self.details = details
            self.mac = mac
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>(
            "One audit entry: nothing secret (no key, token, signature or address).", name: "AuditEntry", [
                .field("sequence", \.sequence, "Its place in the tenant's chain (1, 2, 3, ...)."),
                .field("at", \.at, Timestamp.wireDescription),
                .field("kind", \.kind, "What happened, e.g. tenant.secret_rotated."),
                .field("actor", \.actor, "Who did it: cli, secret-key, device or system."),
                .optional("subject", \.subject, "What it was done to (a user, authenticator or activation id)."),
                .field("details", \.details, "Non-secret facts about it."),
                .field("mac", \.mac, "HMAC-SHA256 over the previous entry's MAC and this entry's content (hex)."),
            ])
    }

    /// The entries, by sequence.
    public var entries: [Entry]
    /// Pass as `cursor` to read the next page; absent on the last page.
    public var nextCursor: String?

    /// A page.
    public init(entries: [Entry], nextCursor: String?) {
        self.entries = entries
        self.nextCursor = nextCursor
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("A page of the tenant's audit log, oldest first.", name: "AuditList", [
        .field("entries", \.entries, "The entries, by sequence."),
        .optional("nextCursor", \.nextCursor, "Pass as cursor to read the next page; absent on the last page."),
    ])
}
