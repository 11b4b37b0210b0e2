import AssentServerCore
import AssentWire
import AssentCrypto

/// What the tenant commands print with `--json`. Absent values are written as `null`, so scripts see every key.
extension TenantCommands {
    /// `tenant create`.
    struct CreatedJSON: Encodable {
        let tenantId: String
        let name: String
        let secretKey: String
        let createdAt: String
    }

    /// `tenant rotate-secret`.
    struct RotatedJSON: Encodable {
        let tenantId: String
        let name: String
        let secretKey: String
    }

    /// A tenant without its secret: `tenant list` (an array of these) and `tenant settings`.
    struct TenantJSON: Encodable {
        let tenantId: String
        let name: String
        let createdAt: String
        let keyVersion: Int
        let settings: SettingsJSON

        init(_ tenant: Tenant) {
            tenantId = tenant.id
            name = tenant.name
            createdAt = Timestamp.iso8601(milliseconds: tenant.createdAt)
            keyVersion = tenant.keyVersion
            settings = SettingsJSON(tenant.settings)
        }
    }

    /// ``TenantSettings`` with explicit nulls.
    struct SettingsJSON: Encodable {
        let unenrolledState: ActionState
        let actionRules: [String: RuleJSON]
        let tokenLifetimeSeconds: Int?
        let settings: TenantSettings

        init(_ settings: TenantSettings) {
            unenrolledState = settings.unenrolledState
            actionRules = settings.actionRules.mapValues(RuleJSON.init)
            tokenLifetimeSeconds = settings.tokenLifetimeSeconds
            self.settings = settings
        }

        private enum CodingKeys: String, CodingKey {
            case unenrolledState, actionRules, tokenLifetimeSeconds, webhookURL, challengeTimeoutSeconds,
                 pushCredentialLifetimeSeconds, publicCustomKeys, publicUserCustomKeys, numberMatching,
                 requireBoundSignature, maxPendingPushChallenges, pushThrottleSeconds, fraudLockSeconds,
                 maxFailedAttempts, requiredApprovalFactor, requireActivationCommit, approvalFactorRules,
                 allowLegacyPowerAuth30, anonymousActionCodes, anonymousApprovalFactor
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(unenrolledState, forKey: .unenrolledState)
            try container.encode(actionRules, forKey: .actionRules)
            try container.encode(tokenLifetimeSeconds, forKey: .tokenLifetimeSeconds)
            try container.encode(settings.webhookURL, forKey: .webhookURL)
            try container.encode(settings.challengeTimeoutSeconds, forKey: .challengeTimeoutSeconds)
            try container.encode(settings.pushCredentialLifetimeSeconds, forKey: .pushCredentialLifetimeSeconds)
            try container.encode(settings.publicCustomKeys, forKey: .publicCustomKeys)
            try container.encode(settings.publicUserCustomKeys, forKey: .publicUserCustomKeys)
            try container.encode(settings.numberMatching, forKey: .numberMatching)
            try container.encode(settings.requireBoundSignature, forKey: .requireBoundSignature)
            try container.encode(settings.maxPendingPushChallenges, forKey: .maxPendingPushChallenges)
            try container.encode(settings.pushThrottleSeconds, forKey: .pushThrottleSeconds)
            try container.encode(settings.fraudLockSeconds, forKey: .fraudLockSeconds)
            try container.encode(settings.maxFailedAttempts, forKey: .maxFailedAttempts)
            try container.encode(settings.requiredApprovalFactor?.rawValue, forKey: .requiredApprovalFactor)
            try container.encode(settings.requireActivationCommit, forKey: .requireActivationCommit)
            try container.encode(settings.approvalFactorRules.mapValues(\.rawValue), forKey: .approvalFactorRules)
            try container.encode(settings.allowLegacyPowerAuth30, forKey: .allowLegacyPowerAuth30)
            try container.encode(settings.anonymousActionCodes, forKey: .anonymousActionCodes)
            try container.encode(settings.anonymousApprovalFactor?.rawValue, forKey: .anonymousApprovalFactor)
        }
    }

    /// One action rule with explicit nulls.
    struct RuleJSON: Encodable {
        let enrolled: ActionState?
        let unenrolled: ActionState?

        init(_ rule: TenantSettings.ActionRule) {
            enrolled = rule.enrolled
            unenrolled = rule.unenrolled
        }

        private enum CodingKeys: String, CodingKey { case enrolled, unenrolled }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(enrolled, forKey: .enrolled)
            try container.encode(unenrolled, forKey: .unenrolled)
        }
    }
}
