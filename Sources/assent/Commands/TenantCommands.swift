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
        options: [
            TenantDatabase.option,
            TenantDatabase.tenantOption,
            .optional("--unenrolled-state", "STATE", "state for users without an authenticator"),
            .repeatable(
                "--action-rule", "ACTION:ENROLLED_STATE:UNENROLLED_STATE",
                "set the rule for an action code; leave a part empty to keep its default"),
            .repeatable("--remove-action-rule", "ACTION", "remove the rule for an action code"),
            .optional("--token-lifetime", "SECONDS|default", "track token lifetime, 30-3600, or the server's default"),
            .optional("--webhook-url", "URL|none", "where authenticator.* webhooks are sent (signed with the secret key)"),
            PrivateURLs.option,
            .optional("--challenge-timeout", "SECONDS", "how long push and QR challenges stay open, 10-600 (default 120)"),
            .optional("--push-credential-lifetime", "SECONDS|none", "lease of push credentials, renewed by resetExpiry"),
            .optional("--public-custom-keys", "K1,K2", "action custom keys shown to the approving device"),
            .optional("--public-user-custom-keys", "K1,K2", "user custom keys shown to the approving device"),
            .optional("--number-matching", "on|off", "approvals must carry the code the initiating page shows"),
            .optional("--require-bound-signature", "on|off", "approvals must carry Assent's bound decision signature"),
            .optional("--max-pending-push", "N", "most open push challenges per user (default 3)"),
            .optional("--push-throttle", "SECONDS",
                      "push starts refused after 3 failed pushes in 10 minutes, doubling per further failure, 1-3600 (default 60)"),
            .optional("--fraud-lock", "SECONDS", "push starts locked after a device says \"this wasn't me\" (default 3600)"),
            .optional("--max-failed-attempts", "N", "failed PowerAuth signatures before an activation is blocked, 1-64 (default 5)"),
            .optional("--required-approval-factor", "TYPE|none",
                      "push and QR approvals must carry a PowerAuth signature with these factors, e.g. possession_biometry"),
            .optional("--require-activation-commit", "on|off", "new activations wait for the backend to commit them"),
            .optional("--allow-legacy-powerauth-30", "on|off",
                      "accept PowerAuth pa_version 3.0 (decimal) signatures; off by default"),
            .repeatable("--action-approval-factor", "ACTION:TYPE|ACTION:none",
                        "require a factor for approvals of one action (overrides --required-approval-factor); none removes it"),
            .optional("--anonymous-actions", "A1,A2|none",
                      "action codes an anonymous QR start (tenant ID only) may name (default signIn); none allows no anonymous start"),
            .optional("--anonymous-approval-factor", "TYPE|none",
                      "factors approvals of anonymous QR challenges need, whatever their action (default: --required-approval-factor)"),
        ]
    ) { invocation in
        let tenantID = try invocation.options.required("--tenant")
        let change = try SettingsChange(invocation.options)
        if case .some(.some(let url)) = change.webhookURL {
            try await PrivateURLs.policy(invocation.options).check(url, field: "webhook URL")
        }
        let tenant = try await TenantDatabase.withDirectory(invocation) { directory in
            if change.isEmpty { return try await TenantDatabase.tenant(tenantID, in: directory) }
            return try await directory.updateSettings(tenantID: tenantID) { change.apply(to: &$0) }
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

    /// Every setting, each on a line of its own (the flag that changes it in brackets), so what `--json` shows is
    /// also what a person reads.
    private static func describe(_ tenant: Tenant) -> String {
        let settings = tenant.settings
        func list(_ values: [String]) -> String { values.isEmpty ? "none" : values.joined(separator: ", ") }
        func onOff(_ value: Bool) -> String { value ? "on" : "off" }
        let factorRules = settings.approvalFactorRules.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.rawValue)" }
        let lines: [(String, String)] = [
            ("tenant", "\(tenant.id) (\"\(tenant.name)\")"),
            ("unenrolled state", settings.unenrolledState.rawValue),
            ("token lifetime", settings.tokenLifetimeSeconds.map { "\($0) s" } ?? "server default"),
            ("webhook URL", settings.webhookURL ?? "none"),
            ("challenge timeout", "\(settings.challengeTimeoutSeconds) s"),
            ("push credential lifetime", settings.pushCredentialLifetimeSeconds.map { "\($0) s" } ?? "none"),
            ("public custom keys", list(settings.publicCustomKeys)),
            ("public user custom keys", list(settings.publicUserCustomKeys)),
            ("number matching", onOff(settings.numberMatching)),
            ("require bound signature", onOff(settings.requireBoundSignature)),
            ("max pending push", "\(settings.maxPendingPushChallenges)"),
            ("push throttle", "\(settings.pushThrottleSeconds) s"),
            ("fraud lock", "\(settings.fraudLockSeconds) s"),
            ("max failed attempts", "\(settings.maxFailedAttempts)"),
            ("required approval factor", settings.requiredApprovalFactor?.rawValue ?? "none"),
            ("action approval factors", list(factorRules)),
            ("require activation commit", onOff(settings.requireActivationCommit)),
            ("allow legacy PowerAuth 3.0", onOff(settings.allowLegacyPowerAuth30)),
            ("anonymous actions", list(settings.anonymousActionCodes)),
            ("anonymous approval factor", settings.anonymousApprovalFactor?.rawValue ?? "none"),
            ("push provider", (settings.push?.provider ?? PushSettings.Provider.none).rawValue + " (assent admin tenant push)"),
        ]
        var text = lines.map { "\(($0.0 + ":").padding(toLength: 28, withPad: " ", startingAt: 0))\($0.1)" }
            .joined(separator: "\n")
        if settings.actionRules.isEmpty {
            text += "\n" + "action rules:".padding(toLength: 28, withPad: " ", startingAt: 0) + "none"
        } else {
            text += "\naction rules:\n"
            let rows = [["  ACTION", "ENROLLED", "UNENROLLED"]] + settings.actionRules.sorted { $0.key < $1.key }.map {
                ["  " + $0.key, $0.value.enrolled?.rawValue ?? "(default)", $0.value.unenrolled?.rawValue ?? "(default)"]
            }
            text += Table.render(rows)
        }
        return text
    }
}
