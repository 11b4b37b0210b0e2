import AssentServerCore
import Foundation
import AssentCrypto
import AssentWire

/// The changes `tenant settings` was asked to make, all checked before the database is touched.
struct SettingsChange {
    var unenrolledState: ActionState?
    var removedRules: [String] = []
    var rules: [(action: String, rule: TenantSettings.ActionRule)] = []
    /// `.some(nil)` means "back to the server's default".
    var tokenLifetime: Int??
    /// `.some(nil)` removes the webhook URL.
    var webhookURL: String??
    var challengeTimeout: Int?
    /// `.some(nil)`: push credentials never lapse.
    var pushCredentialLifetime: Int??
    var publicCustomKeys: [String]?
    var publicUserCustomKeys: [String]?
    var numberMatching: Bool?
    var requireBoundSignature: Bool?
    var maxPendingPush: Int?
    var pushThrottle: Int?
    var fraudLock: Int?
    var maxFailedAttempts: Int?
    /// `.some(nil)` removes the requirement.
    var requiredApprovalFactor: PowerAuthSignatureType??
    var requireActivationCommit: Bool?
    var allowLegacyPowerAuth30: Bool?
    /// Per action: a type to require, or nil to remove the action's rule.
    var approvalFactorRules: [(action: String, factor: PowerAuthSignatureType?)] = []
    /// The action codes anonymous QR starts may name (empty: none).
    var anonymousActionCodes: [String]?
    /// `.some(nil)`: anonymous approvals follow `requiredApprovalFactor`.
    var anonymousApprovalFactor: PowerAuthSignatureType??

    /// The shortest and longest track token lifetime, as `assentd --token-lifetime` allows.
    static let lifetimeRange = TenantSettingRules.tokenLifetime

    /// Reads and checks the options with ``TenantSettingRules`` (the rules the admin console's settings page follows
    /// too); any invalid value is a usage error and nothing changes.
    init(_ options: ParsedOptions) throws {
        do {
            try read(options)
        } catch let error as AssentError {
            throw CLIError.usage(error.reason)
        }
    }

    private mutating func read(_ options: ParsedOptions) throws {
        typealias Rules = TenantSettingRules
        if let text = options.string("--unenrolled-state") {
            unenrolledState = try Rules.state(text, "--unenrolled-state")
        }
        for action in options.strings("--remove-action-rule") {
            removedRules.append(try Rules.actionCode(action, "--remove-action-rule"))
        }
        for text in options.strings("--action-rule") {
            rules.append(try Rules.actionRule(text, "--action-rule"))
        }
        if let text = options.string("--webhook-url") {
            webhookURL = .some(try Rules.webhookURL(text, "--webhook-url"))
        }
        challengeTimeout = try Self.number(options, "--challenge-timeout", Rules.challengeTimeout)
        if let text = options.string("--push-credential-lifetime") {
            pushCredentialLifetime = .some(try Rules.pushCredentialLifetime(text, "--push-credential-lifetime"))
        }
        publicCustomKeys = options.string("--public-custom-keys").map(Rules.keys)
        publicUserCustomKeys = options.string("--public-user-custom-keys").map(Rules.keys)
        numberMatching = try options.string("--number-matching").map { try Rules.onOff($0, "--number-matching") }
        requireBoundSignature = try options.string("--require-bound-signature").map {
            try Rules.onOff($0, "--require-bound-signature")
        }
        maxPendingPush = try Self.number(options, "--max-pending-push", Rules.maxPendingPush)
        pushThrottle = try Self.number(options, "--push-throttle", Rules.pushThrottle)
        fraudLock = try Self.number(options, "--fraud-lock", Rules.fraudLock)
        maxFailedAttempts = try Self.number(options, "--max-failed-attempts", Rules.maxFailedAttempts)
        if let text = options.string("--required-approval-factor") {
            requiredApprovalFactor = .some(try Rules.factor(text, "--required-approval-factor"))
        }
        if let text = options.string("--anonymous-approval-factor") {
            anonymousApprovalFactor = .some(try Rules.factor(text, "--anonymous-approval-factor"))
        }
        if let text = options.string("--anonymous-actions") {
            anonymousActionCodes = try Rules.anonymousActions(text, "--anonymous-actions")
        }
        requireActivationCommit = try options.string("--require-activation-commit").map {
            try Rules.onOff($0, "--require-activation-commit")
        }
        allowLegacyPowerAuth30 = try options.string("--allow-legacy-powerauth-30").map {
            try Rules.onOff($0, "--allow-legacy-powerauth-30")
        }
        for text in options.strings("--action-approval-factor") {
            approvalFactorRules.append(try Rules.approvalFactorRule(text, "--action-approval-factor"))
        }
        if let text = options.string("--token-lifetime") {
            tokenLifetime = .some(try Rules.tokenLifetime(text, "--token-lifetime"))
        }
    }

    /// Whether nothing was asked for.
    var isEmpty: Bool {
        unenrolledState == nil && removedRules.isEmpty && rules.isEmpty && tokenLifetime == nil && webhookURL == nil
            && challengeTimeout == nil && pushCredentialLifetime == nil && publicCustomKeys == nil
            && publicUserCustomKeys == nil && numberMatching == nil && requireBoundSignature == nil && maxPendingPush == nil
            && pushThrottle == nil && fraudLock == nil
            && maxFailedAttempts == nil && requiredApprovalFactor == nil && requireActivationCommit == nil
            && allowLegacyPowerAuth30 == nil && approvalFactorRules.isEmpty && anonymousActionCodes == nil
            && anonymousApprovalFactor == nil
    }

    private static func number(_ options: ParsedOptions, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
        try options.string(name).map { try TenantSettingRules.number($0, name, range) }
    }

    /// Applies the changes: removals first, then rules in the order given. A rule with both parts empty removes it.
    func apply(to settings: inout TenantSettings) {
        if let unenrolledState { settings.unenrolledState = unenrolledState }
        for action in removedRules { settings.actionRules[action] = nil }
        for (action, rule) in rules {
            settings.actionRules[action] = rule.enrolled == nil && rule.unenrolled == nil ? nil : rule
        }
        if let tokenLifetime { settings.tokenLifetimeSeconds = tokenLifetime }
        if let webhookURL { settings.webhookURL = webhookURL }
        if let challengeTimeout { settings.challengeTimeoutSeconds = challengeTimeout }
        if let pushCredentialLifetime { settings.pushCredentialLifetimeSeconds = pushCredentialLifetime }
        if let publicCustomKeys { settings.publicCustomKeys = publicCustomKeys }
        if let publicUserCustomKeys { settings.publicUserCustomKeys = publicUserCustomKeys }
        if let numberMatching { settings.numberMatching = numberMatching }
        if let requireBoundSignature { settings.requireBoundSignature = requireBoundSignature }
        if let maxPendingPush { settings.maxPendingPushChallenges = maxPendingPush }
        if let pushThrottle { settings.pushThrottleSeconds = pushThrottle }
        if let fraudLock { settings.fraudLockSeconds = fraudLock }
        if let maxFailedAttempts { settings.maxFailedAttempts = maxFailedAttempts }
        if let requiredApprovalFactor { settings.requiredApprovalFactor = requiredApprovalFactor }
        if let requireActivationCommit { settings.requireActivationCommit = requireActivationCommit }
        if let allowLegacyPowerAuth30 { settings.allowLegacyPowerAuth30 = allowLegacyPowerAuth30 }
        for (action, factor) in approvalFactorRules { settings.approvalFactorRules[action] = factor }
        if let anonymousActionCodes { settings.anonymousActionCodes = anonymousActionCodes }
        if let anonymousApprovalFactor { settings.anonymousApprovalFactor = anonymousApprovalFactor }
    }

    /// An action code as the server API accepts it in a path (``TenantSettingRules/actionCode(_:_:)``).
    static func actionCode(_ text: String, option: String) throws -> String {
        do {
            return try TenantSettingRules.actionCode(text, option)
        } catch let error as AssentError {
            throw CLIError.usage(error.reason)
        }
    }
}
