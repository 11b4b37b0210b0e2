package import AssentCrypto
package import AssentWire

/// What a tenant decides: how tracked actions are answered and how long tokens live.
///
/// The state rule for a tracked action is, in order:
/// 1. a rule for that action code in ``actionRules`` (its `enrolled` or `unenrolled` state, whichever applies), if set;
/// 2. otherwise `CHALLENGE_REQUIRED` when the user has at least one authenticator;
/// 3. otherwise ``unenrolledState`` (default `ALLOW`).
package struct TenantSettings: Codable, Sendable, Hashable {
    /// Per-action overrides of the default rule.
    package struct ActionRule: Codable, Sendable, Hashable {
        /// State for users with at least one authenticator.
        package var enrolled: ActionState?
        /// State for users without one.
        package var unenrolled: ActionState?
        /// Creates a rule.
        package init(enrolled: ActionState? = nil, unenrolled: ActionState? = nil) {
            self.enrolled = enrolled
            self.unenrolled = unenrolled
        }
    }

    /// The state of an action tracked for a user without authenticators.
    package var unenrolledState: ActionState = .allow
    /// Overrides keyed by action code.
    package var actionRules: [String: ActionRule] = [:]
    /// Lifetime of track tokens in seconds; nil means the server's configured default.
    package var tokenLifetimeSeconds: Int?
    /// Where `authenticator.*` events are POSTed (signed with the tenant's secret key); nil sends none.
    package var webhookURL: String?
    /// Seconds a push or QR challenge stays open (default 120, at most 600).
    package var challengeTimeoutSeconds: Int = 120
    /// Days each sign-in outcome stays in the authentication history (``SignIn``) before the sweep deletes it
    /// (default 90, 1...3650).
    package var signInHistoryRetentionDays: Int = 90
    /// Lease of a push credential in seconds, renewed by `resetExpiry`; nil means push credentials never lapse.
    package var pushCredentialLifetimeSeconds: Int?
    /// Keys of an action's `custom` data shown to the approving device (only on signed requests).
    package var publicCustomKeys: [String] = []
    /// Keys of a user's `custom` data shown to the approving device (only on signed requests).
    package var publicUserCustomKeys: [String] = []
    /// Number matching: push approvals must carry the code the initiating page shows.
    package var numberMatching = false
    /// Every device credential enrolled from now on is `bound`, whatever its enrolment asks for: its answers must carry
    /// Assent's bound signature, and its claims, removals and updates sign bound messages (the official SDKs, which
    /// sign Authsignal's messages, cannot be used). Answers of credentials enrolled before must carry the bound
    /// signature too.
    package var requireBoundSignature = false
    /// Most open push challenges a user may have at once (push-bombing defence).
    package var maxPendingPushChallenges: Int = 3
    /// Seconds push starts are refused (`push_throttled`) after consecutive failed pushes; doubles with every further
    /// failure before an approval (default 60, at most an hour).
    package var pushThrottleSeconds: Int = 60
    /// Seconds push starts are locked (`push_locked`) after a device reports a push as not theirs (default 3600).
    package var fraudLockSeconds: Int = 3600
    /// How push challenges are delivered; nil (tenants from before push delivery) means pull only.
    package var push: PushSettings?
    /// Failed non-possession PowerAuth signatures after which an activation is blocked (default 5, 1...64).
    package var maxFailedAttempts: Int = PowerAuth.defaultMaxFailedAttempts
    /// When set, push and QR approvals must carry an `X-PowerAuth-Authorization` header signed over the request by
    /// an ACTIVE activation of the same user with at least these factors (e.g. `possession_biometry`).
    package var requiredApprovalFactor: PowerAuthSignatureType?
    /// Per action code, the factors approvals of that action need; overrides ``requiredApprovalFactor``.
    package var approvalFactorRules: [String: PowerAuthSignatureType] = [:]
    /// New activations wait in `PENDING_COMMIT` until the backend commits them.
    package var requireActivationCommit = false
    /// PowerAuth signatures of `pa_version` 3.0 (the decimal format: 8 digits per component, easier to guess than the
    /// 16 bytes of 3.1+) are accepted; off by default, refused without counting anything.
    package var allowLegacyPowerAuth30 = false
    /// The action codes an anonymous QR start (tenant ID only, no track token) may name; any other is refused
    /// `403 action_not_allowed`. Anyone who knows the tenant ID can start one, so only codes the tenant means for
    /// anonymous sign-in belong here.
    package var anonymousActionCodes: [String] = Self.defaultAnonymousActionCodes
    /// The factors approvals of anonymous QR challenges need, whatever action code the start named (the caller
    /// picks the code, so per-action rules do not apply to it); nil falls back to ``requiredApprovalFactor``.
    package var anonymousApprovalFactor: PowerAuthSignatureType?

    /// Whether enrolment asks for device attestation (App Attest, Android key attestation): see `docs/attestation.md`.
    package var attestationPolicy: AttestationPolicy = .off
    /// The App Attest app ids (`TEAMID.bundle.id`) whose attestations are accepted.
    package var appleAppIds: [String] = []
    /// Which App Attest environments are accepted.
    package var appleAttestationEnvironment: AppleAttestationEnvironment = .production
    /// The Android apps (package name and signing certificate digests) whose key attestations are accepted.
    package var androidPackages: [AndroidPackageRule] = []
    /// The least hardware an attested Android key must live in.
    package var androidMinimumSecurityLevel: AndroidMinimumSecurityLevel = .tee
    /// Android attestations must report a verified boot and a locked bootloader.
    package var androidRequireLockedBootloader = true
    /// Every push and QR approval must come from a credential with a verified attestation.
    package var requireAttestedApprovals = false
    /// The action codes whose approvals must come from a credential with a verified attestation.
    package var attestedApprovalActions: [String] = []

    /// ``anonymousActionCodes`` unless set.
    package static let defaultAnonymousActionCodes = ["signIn"]

    /// Default settings.
    package init() {}

    /// The part of an action's custom data the tenant lets the approving device see, or nil when none.
    func publicCustom(_ custom: [String: JSONValue]?) -> [String: JSONValue]? {
        Self.subset(custom, keys: publicCustomKeys)
    }

    /// The part of a user's custom data the tenant lets the approving device see, or nil when none.
    func publicUserCustom(_ custom: [String: JSONValue]?) -> [String: JSONValue]? {
        Self.subset(custom, keys: publicUserCustomKeys)
    }

    private static func subset(_ custom: [String: JSONValue]?, keys: [String]) -> [String: JSONValue]? {
        guard let custom, !keys.isEmpty else { return nil }
        let subset = custom.filter { keys.contains($0.key) }
        return subset.isEmpty ? nil : subset
    }

    /// The factors an approval of `action` must prove with a PowerAuth signature: the action's rule, else the tenant's
    /// ``requiredApprovalFactor``; nil when none.
    package func approvalFactor(forAction action: String?) -> PowerAuthSignatureType? {
        action.flatMap { approvalFactorRules[$0] } ?? requiredApprovalFactor
    }

    /// The factors an approval of `challenge` must prove: ``anonymousApprovalFactor`` (else ``requiredApprovalFactor``)
    /// for an anonymous one, whatever its action code; otherwise ``approvalFactor(forAction:)``.
    package func approvalFactor(for challenge: Challenge) -> PowerAuthSignatureType? {
        challenge.isAnonymous ? anonymousApprovalFactor ?? requiredApprovalFactor : approvalFactor(forAction: challenge.actionCode)
    }

    /// The state the rule above gives.
    package func state(forAction action: String, isEnrolled: Bool) -> ActionState {
        let rule = actionRules[action]
        if isEnrolled {
            return rule?.enrolled ?? .challengeRequired
        }
        return rule?.unenrolled ?? unenrolledState
    }

    /// Decodes stored settings through ``table``, tolerating keys written by newer versions and missing keys written
    /// by older ones (their defaults are the properties' initial values); only types are checked, not bounds.
    package init(from decoder: any Decoder) throws {
        let stored = try JSONValue(from: decoder)
        guard case .object(let members) = stored else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an object"))
        }
        self.init()
        for setting in Self.table {
            guard let value = members[setting.name] else { continue }
            try setting.readJSON(value, setting.name, false, &self)
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        push = try container.decodeIfPresent(PushSettings.self, forKey: .push)
    }
}
