import AssentCrypto
import AssentServerCore
import AssentWire
import Foundation

/// `assent admin tenant ...`: tenants, their secret keys and settings, straight on the database (no server needed).
enum TenantCommands {
    /// The `tenant` group.
    static let group = Command.group(
        "tenant", "create tenants, rotate their secret keys, change their settings (on the database)",
        details: """
            These commands open assentd's SQLite database directly; they work while assentd runs.
            Secret keys are stored only as hashes: a key is shown once, when created or rotated.
            """,
        [create, list, rotateSecret, settings, PushCommand.command, powerAuth])

    static let create = Command.leaf(
        "create", "create a tenant and print its ID and secret key (shown only this once)",
        options: [TenantDatabase.option, .optional("--name", "NAME", "a name for people (default \"\(defaultName)\")")]
    ) { invocation in
        let name = invocation.options.string("--name") ?? defaultName
        let credentials = try await TenantDatabase.withDirectory(invocation, mayCreate: true) { directory in
            try await directory.create(name: name)
        }
        let tenant = credentials.tenant
        try invocation.output.result(
            CreatedJSON(
                tenantId: tenant.id, name: tenant.name, secretKey: credentials.secretKey,
                createdAt: Timestamp.iso8601(milliseconds: tenant.createdAt))
        ) {
            """
            Created tenant "\(tenant.name)".
              tenant ID:  \(tenant.id)
              secret key: \(credentials.secretKey)
            Keep the secret key now: only its hash is stored, so it cannot be shown again (rotate-secret makes a new one).
            """
        }
    }

    static let list = Command.leaf(
        "list", "list tenants (never their secret keys, which are stored only hashed)",
        options: [TenantDatabase.option]
    ) { invocation in
        let tenants = try await TenantDatabase.withDirectory(invocation) { try await $0.all() }
        try invocation.output.result(tenants.map(TenantJSON.init)) {
            Table.render(tenants, empty: "No tenants.", header: ["TENANT ID", "NAME", "CREATED", "SETTINGS"]) { tenant in
                [tenant.id, tenant.name, Timestamp.iso8601(milliseconds: tenant.createdAt), summary(tenant.settings)]
            }
        }
    }

    static let rotateSecret = Command.leaf(
        "rotate-secret", "replace a tenant's secret key; the old one stops working at once",
        options: [TenantDatabase.option, TenantDatabase.tenantOption]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let credentials = try await TenantDatabase.withDirectory(invocation) { directory in
            try await directory.rotateSecret(tenantID: tenantID)
        }
        try invocation.output.result(
            RotatedJSON(tenantId: credentials.tenant.id, name: credentials.tenant.name, secretKey: credentials.secretKey)
        ) {
            """
            Rotated the secret key of tenant "\(credentials.tenant.name)"; the old key no longer works.
              tenant ID:  \(credentials.tenant.id)
              secret key: \(credentials.secretKey)
            Keep the secret key now: only its hash is stored, so it cannot be shown again.
            """
        }
    }

    static let settings = Command.leaf(
        "settings", "show a tenant's settings, after applying any changes given",
        details: """
            How a tracked action's state is decided, in order:
              1. the action's rule (--action-rule), its ENROLLED_STATE or UNENROLLED_STATE part, if set;
              2. otherwise CHALLENGE_REQUIRED for a user with at least one authenticator;
              3. otherwise the tenant's unenrolled state (--unenrolled-state, default ALLOW).
            States: \(ActionStateName.allowed).
            Removals are applied before new rules; a rule with both states empty (signIn::) is removed.
            Nothing changes unless every value given is valid.
            """,
        options: [TenantDatabase.option, TenantDatabase.tenantOption, PrivateURLs.option] + SettingsChange.options
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let change = try SettingsChange(invocation.options)
        if case .some(.some(let url)) = change.webhookURL {
            try await PrivateURLs.policy(invocation.options).check(url, field: "webhook URL")
        }
        let tenant = try await TenantDatabase.withDirectory(invocation) { directory in
            if change.isEmpty { return try await TenantDatabase.tenant(tenantID, in: directory) }
            return try await directory.updateSettings(tenantID: tenantID) { try change.apply(to: &$0) }
        }
        try invocation.output.result(TenantJSON(tenant)) { describe(tenant) }
    }

    static let defaultName = "Default"

    // MARK: Text for people

    private static func summary(_ settings: TenantSettings) -> String {
        var parts = ["unenrolled \(settings.unenrolledState.rawValue)"]
        if !settings.actionRules.isEmpty {
            parts.append("\(settings.actionRules.count) action rule\(settings.actionRules.count == 1 ? "" : "s")")
        }
        if let lifetime = settings.tokenLifetimeSeconds { parts.append("tokens \(lifetime) s") }
        if let push = settings.push, push.provider != .none { parts.append("push \(push.provider.rawValue)") }
        return parts.joined(separator: ", ")
    }

    /// Every setting, each on a line of its own (its label, as the console shows it), so what `--json` shows is also
    /// what a person reads.
    private static func describe(_ tenant: Tenant) -> String {
        let settings = tenant.settings
        let lines: [(String, String)] = [("tenant", "\(tenant.id) (\"\(tenant.name)\")")]
            + TenantSettings.table.map { ($0.label, $0.described(settings)) }
            + [("push provider", (settings.push?.provider ?? PushSettings.Provider.none).rawValue + " (assent admin tenant push)")]
        return lines.map { "\(($0.0 + ":").padding(toLength: 28, withPad: " ", startingAt: 0))\($0.1)" }
            .joined(separator: "\n")
    }
}
