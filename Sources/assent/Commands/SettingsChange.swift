import AssentServer
import AssentWire

/// The changes `tenant settings` was asked to make, all checked before the database is touched.
struct SettingsChange {
    var unenrolledState: ActionState?
    var removedRules: [String] = []
    var rules: [(action: String, rule: TenantSettings.ActionRule)] = []
    /// `.some(nil)` means "back to the server's default".
    var tokenLifetime: Int??

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
        unenrolledState == nil && removedRules.isEmpty && rules.isEmpty && tokenLifetime == nil
    }

    /// Applies the changes: removals first, then rules in the order given. A rule with both parts empty removes it.
    func apply(to settings: inout TenantSettings) {
        if let unenrolledState { settings.unenrolledState = unenrolledState }
        for action in removedRules { settings.actionRules[action] = nil }
        for (action, rule) in rules {
            settings.actionRules[action] = rule.enrolled == nil && rule.unenrolled == nil ? nil : rule
        }
        if let tokenLifetime { settings.tokenLifetimeSeconds = tokenLifetime }
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
