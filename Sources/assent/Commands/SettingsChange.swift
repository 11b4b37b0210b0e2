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
    static let lifetimeRange = 30...3600

    /// Reads and checks the options; any invalid value is a usage error and nothing changes.
    init(_ options: ParsedOptions) throws {
        if let text = options.string("--unenrolled-state") {
            unenrolledState = try ActionStateName.parse(text, option: "--unenrolled-state")
        }
        for action in options.strings("--remove-action-rule") {
            removedRules.append(try Self.actionCode(action, option: "--remove-action-rule"))
        }
        for text in options.strings("--action-rule") {
            rules.append(try Self.rule(text))
        }
        if let text = options.string("--webhook-url") {
            if text.lowercased() == "none" {
                webhookURL = .some(nil)
            } else if let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil {
                webhookURL = .some(text)
            } else {
                throw CLIError.usage("--webhook-url must be an http(s) URL or 'none', got '\(text)'")
            }
        }
        challengeTimeout = try Self.number(options, "--challenge-timeout", 10...600)
        if let text = options.string("--push-credential-lifetime") {
            pushCredentialLifetime = text.lowercased() == "none"
                ? .some(nil) : .some(try Self.number(options, "--push-credential-lifetime", 60...(10 * 365 * 86_400)))
        }
        publicCustomKeys = Self.keys(options, "--public-custom-keys")
        publicUserCustomKeys = Self.keys(options, "--public-user-custom-keys")
        numberMatching = try Self.onOff(options, "--number-matching")
        requireBoundSignature = try Self.onOff(options, "--require-bound-signature")
        maxPendingPush = try Self.number(options, "--max-pending-push", 1...100)
        pushThrottle = try Self.number(options, "--push-throttle", 1...3600)
        fraudLock = try Self.number(options, "--fraud-lock", 0...(30 * 86_400))
        maxFailedAttempts = try Self.number(options, "--max-failed-attempts", 1...64)
        requiredApprovalFactor = try Self.factor(options, "--required-approval-factor")
        anonymousApprovalFactor = try Self.factor(options, "--anonymous-approval-factor")
        if let text = options.string("--anonymous-actions") {
            anonymousActionCodes = text.lowercased() == "none" ? [] : try text.split(separator: ",")
                .map { try Self.actionCode($0.trimmingCharacters(in: .whitespaces), option: "--anonymous-actions") }
        }
        requireActivationCommit = try Self.onOff(options, "--require-activation-commit")
        allowLegacyPowerAuth30 = try Self.onOff(options, "--allow-legacy-powerauth-30")
        for text in options.strings("--action-approval-factor") {
            guard let colon = text.lastIndex(of: ":") else {
                throw CLIError.usage("--action-approval-factor must be ACTION:TYPE or ACTION:none, got '\(text)'")
            }
            let action = try Self.actionCode(String(text[..<colon]), option: "--action-approval-factor")
            let name = String(text[text.index(after: colon)...])
            if name.lowercased() == "none" {
                approvalFactorRules.append((action, nil))
            } else if let type = PowerAuthSignatureType(rawValue: name) {
                approvalFactorRules.append((action, type))
            } else {
                throw CLIError.usage("--action-approval-factor \(action): '\(name)' is not a PowerAuth signature type or 'none'")
            }
        }
        if let text = options.string("--token-lifetime") {
            if text.lowercased() == "default" {
                tokenLifetime = .some(nil)
            } else if let seconds = Int(text), Self.lifetimeRange.contains(seconds) {
                tokenLifetime = .some(seconds)
            } else {
                throw CLIError.usage(
                    "--token-lifetime must be a whole number of seconds from \(Self.lifetimeRange.lowerBound) to "
                        + "\(Self.lifetimeRange.upperBound), or 'default'; got '\(text)'")
            }
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

    /// A PowerAuth signature type, or `none` (`.some(nil)`); nil when the option is absent.
    private static func factor(_ options: ParsedOptions, _ name: String) throws -> PowerAuthSignatureType?? {
        guard let text = options.string(name) else { return nil }
        if text.lowercased() == "none" { return .some(nil) }
        guard let type = PowerAuthSignatureType(rawValue: text) else {
            throw CLIError.usage("\(name) must be a PowerAuth signature type ("
                + PowerAuthSignatureType.allCases.map(\.rawValue).joined(separator: ", ") + ") or 'none', got '\(text)'")
        }
        return .some(type)
    }

    private static func number(_ options: ParsedOptions, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
        guard let text = options.string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw CLIError.usage("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    private static func onOff(_ options: ParsedOptions, _ name: String) throws -> Bool? {
        guard let text = options.string(name) else { return nil }
        switch text.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw CLIError.usage("\(name) must be on or off, got '\(text)'")
        }
    }

    private static func keys(_ options: ParsedOptions, _ name: String) -> [String]? {
        options.string(name).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
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

    /// `ACTION:ENROLLED_STATE:UNENROLLED_STATE`, split at the last two colons (action codes may hold colons).
    private static func rule(_ text: String) throws -> (action: String, rule: TenantSettings.ActionRule) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3 else {
            throw CLIError.usage(
                "--action-rule must be ACTION:ENROLLED_STATE:UNENROLLED_STATE (a state part may be empty), got '\(text)'")
        }
        let action = try actionCode(parts.dropLast(2).joined(separator: ":"), option: "--action-rule")
        func state(_ part: Substring) throws -> ActionState? {
            part.isEmpty ? nil : try ActionStateName.parse(String(part), option: "--action-rule \(action)")
        }
        return (action, TenantSettings.ActionRule(enrolled: try state(parts[parts.count - 2]),
                                                  unenrolled: try state(parts[parts.count - 1])))
    }

    /// An action code as the server API accepts it in a path: 1 to 100 letters, digits and `_ - . :`.
    static func actionCode(_ text: String, option: String) throws -> String {
        guard !text.isEmpty, text.utf8.count <= 100, text.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_-.:".unicodeScalars.contains($0)
        }) else {
            throw CLIError.usage(
                "\(option): an action code must be 1 to 100 letters, digits and _ - . :, got '\(text)'")
        }
        return text
    }
}
