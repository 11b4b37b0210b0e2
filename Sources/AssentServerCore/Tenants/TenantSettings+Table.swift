package import AssentWire

extension TenantSettings {
    /// Every tenant setting, declared once, in the order the console, the CLI's help and text, and the docs show them
    /// (grouped, each group's settings together). The server API, the CLI, the console and the stored settings' reader
    /// all follow from it (see ``TenantSetting``); a setting's default is its property's initial value above.
    ///
    /// The push provider settings (``push``) are not here: they hold credentials and have routes, commands and a page
    /// of their own.
    package static let table: [TenantSetting] = {
        typealias Rules = TenantSettingRules
        return [
            TenantSetting(
                "unenrolledState", flag: "--unenrolled-state", label: "Unenrolled state", group: .actions,
                effect: "The state an action tracked for a user without an authenticator gets, unless an action rule says otherwise.",
                setting: \.unenrolledState, kind: .state),
            TenantSetting(
                "actionRules", flag: "--action-rule", label: "Action rules", group: .actions,
                effect: "Per action code, the state for enrolled and for unenrolled users, instead of the defaults.",
                setting: \.actionRules, kind: .actionRules),
            TenantSetting(
                "tokenLifetimeSeconds", flag: "--token-lifetime", label: "Token lifetime", group: .actions,
                effect: "How long a track token lives; empty uses the server's --token-lifetime.",
                setting: \.tokenLifetimeSeconds,
                kind: .optional(.seconds(Rules.tokenLifetime), noneWord: "default", noneMeaning: "the server's default")),
            TenantSetting(
                "challengeTimeoutSeconds", flag: "--challenge-timeout", label: "Challenge timeout", group: .actions,
                effect: "How long a push or QR challenge stays open before it expires.",
                setting: \.challengeTimeoutSeconds, kind: .seconds(Rules.challengeTimeout)),
            TenantSetting(
                "signInHistoryRetentionDays", flag: "--sign-in-history-retention", label: "Sign-in history retention",
                group: .actions,
                effect: "How many days each sign-in outcome (approved, declined, expired, refused) stays in the history.",
                setting: \.signInHistoryRetentionDays, kind: .number(Rules.signInHistoryRetentionDays)),
            TenantSetting(
                "publicCustomKeys", flag: "--public-custom-keys", label: "Public custom keys", group: .actions,
                effect: "Keys of an action's custom data the approving device is shown.",
                setting: \.publicCustomKeys, kind: .keys),
            TenantSetting(
                "publicUserCustomKeys", flag: "--public-user-custom-keys", label: "Public user custom keys", group: .actions,
                effect: "Keys of a user's custom data the approving device is shown.",
                setting: \.publicUserCustomKeys, kind: .keys),
            TenantSetting(
                "requireBoundSignature", flag: "--require-bound-signature", label: "Require bound signature", group: .actions,
                effect: "Answers must carry Assent's bound decision signature, which the official SDKs cannot make.",
                setting: \.requireBoundSignature, kind: .onOff),
            TenantSetting(
                "pushCredentialLifetimeSeconds", flag: "--push-credential-lifetime", label: "Push credential lifetime",
                group: .push,
                effect: "How long a push credential lives unless its device renews it; empty means credentials never lapse.",
                setting: \.pushCredentialLifetimeSeconds,
                kind: .optional(.seconds(Rules.pushCredentialLifetime), noneWord: "none", noneMeaning: "none (credentials never lapse)")),
            TenantSetting(
                "numberMatching", flag: "--number-matching", label: "Number matching", group: .push,
                effect: "Push approvals must carry the code the initiating page shows.",
                setting: \.numberMatching, kind: .onOff),
            TenantSetting(
                "anonymousActionCodes", flag: "--anonymous-actions", label: "Anonymous actions", group: .qrCodes,
                effect: "The action codes a QR start with only the tenant ID may name; anyone who knows the ID can start one.",
                setting: \.anonymousActionCodes, kind: .actionCodes(maximum: AnonymousQRSettings.maxActionCodes)),
            TenantSetting(
                "anonymousApprovalFactor", flag: "--anonymous-approval-factor", label: "Anonymous approval factor",
                group: .qrCodes,
                effect: "The factors approvals of anonymous QR challenges need; none follows the required approval factor.",
                setting: \.anonymousApprovalFactor, kind: .factor),
            TenantSetting(
                "requiredApprovalFactor", flag: "--required-approval-factor", label: "Required approval factor",
                group: .powerAuth,
                effect: "Push and QR approvals must carry a PowerAuth signature with at least these factors.",
                setting: \.requiredApprovalFactor, kind: .factor),
            TenantSetting(
                "approvalFactorRules", flag: "--action-approval-factor", label: "Action approval factors",
                group: .powerAuth,
                effect: "Per action code, the factors its approvals need, instead of the required approval factor.",
                setting: \.approvalFactorRules, kind: .approvalFactorRules),
            TenantSetting(
                "requireActivationCommit", flag: "--require-activation-commit", label: "Require activation commit",
                group: .powerAuth, effect: "New PowerAuth activations wait until the backend commits them.",
                setting: \.requireActivationCommit, kind: .onOff),
            TenantSetting(
                "allowLegacyPowerAuth30", flag: "--allow-legacy-powerauth-30", label: "Allow PowerAuth 3.0",
                group: .powerAuth, effect: "PowerAuth 3.0 signatures (decimal, easier to guess) are accepted.",
                setting: \.allowLegacyPowerAuth30, kind: .onOff),
            TenantSetting(
                "attestationPolicy", flag: "--attestation-policy", label: "Attestation policy", group: .attestation,
                effect: "off: no attestation asked for; record: verify what comes and keep the verdict; require: refuse enrolment without a valid attestation.",
                setting: \.attestationPolicy, kind: .choice),
            TenantSetting(
                "appleAppIds", flag: "--apple-app-ids", label: "Apple app ids", group: .attestation,
                effect: "The apps (TEAMID.bundle.id) whose App Attest attestations are accepted.",
                setting: \.appleAppIds, kind: .appleAppIds),
            TenantSetting(
                "appleAttestationEnvironment", flag: "--apple-attestation-environment", label: "App Attest environment",
                group: .attestation, effect: "Which App Attest environment is accepted: production, development or both.",
                setting: \.appleAttestationEnvironment, kind: .choice),
            TenantSetting(
                "androidPackages", flag: "--android-package", label: "Android packages", group: .attestation,
                effect: "The Android apps (package name and signing certificate SHA-256 digests) whose key attestations are accepted.",
                setting: \.androidPackages, kind: .androidPackages),
            TenantSetting(
                "androidMinimumSecurityLevel", flag: "--android-minimum-security-level", label: "Android security level",
                group: .attestation, effect: "The least hardware an attested Android key must live in: tee or strongbox.",
                setting: \.androidMinimumSecurityLevel, kind: .choice),
            TenantSetting(
                "androidRequireLockedBootloader", flag: "--android-require-locked-bootloader",
                label: "Android locked bootloader", group: .attestation,
                effect: "Android attestations must report a verified boot and a locked bootloader.",
                setting: \.androidRequireLockedBootloader, kind: .onOff),
            TenantSetting(
                "requireAttestedApprovals", flag: "--require-attested-approvals", label: "Require attested approvals",
                group: .attestation, effect: "Every push and QR approval must come from a credential with a verified attestation.",
                setting: \.requireAttestedApprovals, kind: .onOff),
            TenantSetting(
                "attestedApprovalActions", flag: "--attested-approval-actions", label: "Attested approval actions",
                group: .attestation,
                effect: "The action codes whose approvals must come from a credential with a verified attestation.",
                setting: \.attestedApprovalActions, kind: .actionCodes(maximum: Rules.maxAttestedApprovalActions)),
            TenantSetting(
                "webhookURL", flag: "--webhook-url", label: "Webhook URL", group: .webhooks,
                effect: "Where authenticator events are posted, signed with the tenant's secret key; empty sends none.",
                setting: \.webhookURL, kind: .url),
            TenantSetting(
                "maxPendingPushChallenges", flag: "--max-pending-push", label: "Most pending pushes", group: .limits,
                effect: "How many push challenges a user may have open at once; further starts are refused.",
                setting: \.maxPendingPushChallenges, kind: .number(Rules.maxPendingPush)),
            TenantSetting(
                "pushThrottleSeconds", flag: "--push-throttle", label: "Push throttle", group: .limits,
                effect: "How long push starts are refused after failed pushes, doubling with each further failure.",
                setting: \.pushThrottleSeconds, kind: .seconds(Rules.pushThrottle)),
            TenantSetting(
                "fraudLockSeconds", flag: "--fraud-lock", label: "Fraud lock", group: .limits,
                effect: "How long push starts are locked after a device reports a push as not theirs.",
                setting: \.fraudLockSeconds, kind: .seconds(Rules.fraudLock)),
            TenantSetting(
                "maxFailedAttempts", flag: "--max-failed-attempts", label: "Most failed attempts", group: .limits,
                effect: "Failed PowerAuth signatures after which an activation is blocked.",
                setting: \.maxFailedAttempts, kind: .number(Rules.maxFailedAttempts)),
        ]
    }()

    /// The setting named `name` (its JSON key), or nil.
    package static func setting(named name: String) -> TenantSetting? {
        table.first { $0.name == name }
    }

    /// Every setting as a JSON object (nulls explicit): what `GET /v1/tenant/settings` answers and `--json` prints.
    package var json: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: Self.table.map { ($0.name, $0.json(self)) }))
    }
}

extension TenantSettings {
    /// The settings with `changes` (a JSON object's members: setting name, camelCase or snake_case, → new value)
    /// applied, every value checked by its setting's rules; an unknown name or an invalid value is
    /// `invalid_request` naming it, and nothing is applied.
    package func applying(_ changes: [(key: String, value: JSONValue)]) throws -> TenantSettings {
        var settings = self
        for (key, value) in changes {
            guard let setting = Self.table.first(where: { $0.name == key || JSONObjectFields.snakeCase($0.name) == key }) else {
                throw AssentError(.invalidRequest, "\(key) is not a tenant setting; the settings are "
                    + Self.table.map(\.name).joined(separator: ", "))
            }
            try setting.readJSON(value, setting.name, true, &settings)
        }
        return settings
    }
}
