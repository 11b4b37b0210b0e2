import AssentServerCore
import AssentWire
import Foundation

/// `assent admin token ...`: admin tokens, which sign in to one tenant's admin console (`/admin/`) until they expire
/// or are revoked; straight on the database, like the tenant commands. A token is stored only as a hash: it is shown
/// once, when created.
enum AdminTokenCommands {
    /// The `token` group.
    static let group = Command.group(
        "token", "create, list and revoke admin console tokens (on the database)",
        details: """
            An admin token signs in to the admin console (/admin/) of one tenant, instead of the tenant's secret key.
            Only its hash is stored: it is shown once, when created. Revoking it ends the sessions it signed in.
            """,
        [create, list, revoke])

    static let create = Command.leaf(
        "create", "create an admin token for a tenant and print it (shown only this once)",
        options: [
            TenantDatabase.option, .required("--tenant", "ID", "the tenant it signs in to"),
            .optional("--expires-in", "DURATION", "how long it works: 90m, 12h, 30d, or seconds (default 30d, at most 366d)"),
            .optional("--name", "NAME", "who or what holds it, for the list"),
        ]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        var lifetime = AdminTokens.defaultLifetimeSeconds
        if let text = invocation.options.string("--expires-in") {
            guard let seconds = parseDuration(text), (1...AdminTokens.maxLifetimeSeconds).contains(seconds) else {
                throw CLIError.usage("--expires-in takes a duration from 1s to 366d, like 90m, 12h or 30d (not \"\(text)\")")
            }
            lifetime = seconds
        }
        let name = invocation.options.string("--name") ?? ""
        let created = try await TenantDatabase.withStore(invocation) { store, _ in
            try await AdminTokens(store: store, clock: .system).create(tenantID: tenantID, name: name, lifetimeSeconds: lifetime)
        }
        let token = created.token
        try invocation.output.result(
            CreatedJSON(
                id: token.id, tenantId: token.tenantID, name: token.name, token: created.secret,
                createdAt: Timestamp.iso8601(milliseconds: token.createdAt),
                expiresAt: Timestamp.iso8601(milliseconds: token.expiresAt))
        ) {
            """
            Created admin token \(token.id) for tenant \(token.tenantID).
              token:   \(created.secret)
              expires: \(Timestamp.iso8601(milliseconds: token.expiresAt))
            Keep the token now: only its hash is stored, so it cannot be shown again. Sign in at /admin/ with it.
            """
        }
    }

    static let list = Command.leaf(
        "list", "list a tenant's admin tokens (never the tokens themselves, which are stored only hashed)",
        options: [TenantDatabase.option, TenantDatabase.tenantOption]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let tokens = try await TenantDatabase.withStore(invocation) { store, _ in
            try await AdminTokens(store: store, clock: .system).list(tenantID: tenantID)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try invocation.output.result(tokens.map { TokenJSON($0, now: now) }) {
            Table.render(tokens, empty: "No admin tokens.", header: ["ID", "NAME", "CREATED", "EXPIRES", "STATE"]) { token in
                [
                    token.id, token.name, Timestamp.iso8601(milliseconds: token.createdAt),
                    Timestamp.iso8601(milliseconds: token.expiresAt), token.isValid(at: now) ? "valid" : "expired",
                ]
            }
        }
    }

    static let revoke = Command.leaf(
        "revoke", "revoke an admin token: it stops working and its console sessions end at once",
        options: [TenantDatabase.option, .required("--id", "ID", "the token's id (adt_…), from create or list")]
    ) { invocation in
        let id = try invocation.options.required("--id")
        try await TenantDatabase.withStore(invocation) { store, _ in
            try await AdminTokens(store: store, clock: .system).revoke(id: id)
        }
        try invocation.output.result(RevokedJSON(id: id, revoked: true)) { "Revoked admin token \(id)." }
    }

    /// `90m`, `12h`, `30d`, `45s` or plain seconds, in seconds; nil otherwise.
    static func parseDuration(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let last = text.last else { return nil }
        if let unit = units[last] {
            return Int64(text.dropLast()).flatMap { $0.multipliedReportingOverflow(by: unit).overflow ? nil : $0 * unit }
        }
        return Int64(text)
    }

    struct CreatedJSON: Encodable {
        let id: String
        let tenantId: String
        let name: String
        let token: String
        let createdAt: String
        let expiresAt: String
    }

    struct TokenJSON: Encodable {
        let id: String
        let tenantId: String
        let name: String
        let createdAt: String
        let expiresAt: String
        let expired: Bool

        init(_ token: AdminToken, now: Int64) {
            id = token.id
            tenantId = token.tenantID
            name = token.name
            createdAt = Timestamp.iso8601(milliseconds: token.createdAt)
            expiresAt = Timestamp.iso8601(milliseconds: token.expiresAt)
            expired = !token.isValid(at: now)
        }
    }

    struct RevokedJSON: Encodable {
        let id: String
        let revoked: Bool
    }
}
