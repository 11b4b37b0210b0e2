import AssentServerCore
import AssentWire
import Foundation

/// `assent admin audit ...`: a tenant's audit log, straight on the database — list it, verify its chain with the
/// master key, apply retention.
enum AuditCommands {
    /// The `audit` group.
    static let group = Command.group(
        "audit", "list, verify and prune a tenant's audit log (on the database)",
        details: """
            Every entry is chained to the one before it with an HMAC keyed from assentd's master key, so these commands
            need the same master key as assentd (beside an SQLite database, or ASSENT_MASTER_KEY_FILE / ASSENT_MASTER_KEY).
            A running assentd serves the same log at GET /v1/audit (secret-key Basic auth).
            """,
        [list, verify, prune])

    static let list = Command.leaf(
        "list", "list a tenant's audit entries, oldest first",
        options: [
            TenantDatabase.option, TenantDatabase.tenantOption,
            .optional("--since", "TIME", "only entries at or after this ISO-8601 UTC time (or milliseconds)"),
            .optional("--kind", "KIND", "only entries of this kind, e.g. tenant.secret_rotated"),
            .optional("--after", "SEQUENCE", "only entries after this sequence number (to page)"),
            .optional("--limit", "N", "at most N entries (default 100, at most 100000)"),
        ]
    ) { invocation in
        let options = invocation.options
        let tenantID = try options.required("--tenant")
        var query = AuditQuery(tenantID: tenantID)
        if let since = options.string("--since") {
            guard let milliseconds = Timestamp.milliseconds(since) else {
                throw CLIError.usage("--since must be an ISO-8601 UTC time (2026-11-30T06:16:58Z) or milliseconds, got '\(since)'")
            }
            query.since = milliseconds
        }
        if let kind = options.string("--kind") { query.kind = AuditKind(rawValue: kind) }
        if let after = options.string("--after") {
            guard let value = Int64(after), value >= 0 else { throw CLIError.usage("--after must be a sequence number, got '\(after)'") }
            query.afterSequence = value
        }
        if let limit = options.string("--limit") { query.limit = try SeedCommand.count(limit, "--limit", maximum: 100_000) }
        let entries = try await TenantDatabase.withStore(invocation) { store, keys in
            try await AuditLog(store: store, keys: keys, clock: .system).entries(query)
        }
        let page = AuditListResponse(
            entries: entries.map(entryJSON),
            nextCursor: entries.count == query.limit ? entries.last.map { String($0.sequence) } : nil)
        try invocation.output.result(page) {
            Table.render(entries, empty: "No audit entries.", header: ["SEQ", "AT", "KIND", "ACTOR", "SUBJECT", "DETAILS"]) {
                [String($0.sequence), Timestamp.iso8601(milliseconds: $0.at), $0.kind.rawValue, $0.actor, $0.subject,
                 $0.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")]
            }
        }
    }

    /// What `verify` prints with `--json`.
    struct VerifyJSON: Encodable {
        let tenantId: String
        let intact: Bool
        let entries: Int
        /// The last sequence (compare with an earlier reading to see entries cut from the end).
        let headSequence: Int64?
        let firstBadSequence: Int64?
        let problem: String?
    }

    static let verify = Command.leaf(
        "verify", "check a tenant's audit chain: exit 0 when intact, 1 naming the first bad sequence",
        details: """
            Detects an entry changed, removed (from the middle or the start) or moved, and one written without the
            master key. Entries cut from the newest end leave a shorter chain that still verifies: compare the head
            sequence printed here with an earlier reading.
            """,
        options: [TenantDatabase.option, TenantDatabase.tenantOption]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let check = try await TenantDatabase.withStore(invocation) { store, keys in
            try await AuditLog(store: store, keys: keys, clock: .system).verify(tenantID: tenantID)
        }
        let verification = check.verification
        if let bad = verification.firstBadSequence {
            throw CLIError.failure(
                "the audit chain of tenant \(tenantID) is broken at sequence \(bad): \(verification.problem)",
                errorCode: "audit_chain_broken")
        }
        try invocation.output.result(
            VerifyJSON(tenantId: tenantID, intact: true, entries: verification.entries, headSequence: check.head,
                       firstBadSequence: nil, problem: nil)
        ) {
            guard let head = check.head else { return "Tenant \(tenantID) has no audit entries." }
            return "The audit chain of tenant \(tenantID) is intact: \(verification.entries) entries, head sequence \(head)."
        }
    }

    /// What `prune` prints with `--json`.
    struct PruneJSON: Encodable {
        let tenantId: String
        let dropped: Int
    }

    static let prune = Command.leaf(
        "prune", "drop a tenant's audit entries older than N days, behind a MAC'd checkpoint",
        details: """
            The chain is verified first (a broken chain is not pruned: that would erase the evidence). The checkpoint
            appended records the last dropped sequence and its MAC, so verify still checks the rest.
            """,
        options: [TenantDatabase.option, TenantDatabase.tenantOption, .required("--older-than-days", "N", "drop entries older than N days (0 drops all)")]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let text = try invocation.options.required("--older-than-days")
        guard let days = Int(text), (0...36_500).contains(days) else {
            throw CLIError.usage("--older-than-days must be a whole number from 0 to 36500, got '\(text)'")
        }
        let dropped = try await TenantDatabase.withStore(invocation) { store, keys in
            do {
                return try await AuditLog(store: store, keys: keys, clock: .system)
                    .prune(tenantID: tenantID, olderThanDays: days, actor: "cli")
            } catch let error as AuditChainBroken {
                throw CLIError.failure("not pruned: \(error)", errorCode: "audit_chain_broken")
            }
        }
        try invocation.output.result(PruneJSON(tenantId: tenantID, dropped: dropped)) {
            dropped == 0 ? "Nothing older than \(days) days." : "Dropped \(dropped) audit entries behind a checkpoint."
        }
    }

    static func entryJSON(_ entry: AuditEntry) -> AuditListResponse.Entry {
        AuditListResponse.Entry(
            sequence: entry.sequence, at: Timestamp.iso8601(milliseconds: entry.at), kind: entry.kind.rawValue,
            actor: entry.actor, subject: entry.subject.isEmpty ? nil : entry.subject, details: entry.details,
            mac: AuditChain.hex(entry.mac))
    }
}
