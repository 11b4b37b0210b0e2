import AssentCrypto
import AssentServerCore
import AssentWire
import Foundation

/// One tenant setting on the console's settings page: its form control, its current value as text, what it does, and
/// how a submitted value is read — always through ``TenantSettingRules``, the rules `assent admin tenant settings`
/// follows, so the page and the CLI accept and refuse the same values.
///
/// The page shows the settings in groups (``Group``); a duration is typed in seconds, as the CLI and the API take it,
/// and the page says its range and stored value in units ("1 minute to 10 years", "now 1 year").
///
/// The push provider settings have a page of their own (``ConsolePushPage``).
struct ConsoleSettingField: Sendable {
    /// The settings page's groups, in its order: each is a `<fieldset>` with a legend and a line on what it holds.
    enum Group: CaseIterable, Sendable {
        case actions, push, qrCodes, powerAuth, webhooks, limits

        /// The legend.
        var title: String {
            switch self {
            case .actions: "Actions and challenges"
            case .push: "Push"
            case .qrCodes: "QR codes"
            case .powerAuth: "PowerAuth"
            case .webhooks: "Webhooks"
            case .limits: "Limits"
            }
        }

        /// The fieldset's element id (`group-push`, …), for in-page links.
        var elementID: String {
            switch self {
            case .actions: "group-actions"
            case .push: "group-push"
            case .qrCodes: "group-qr"
            case .powerAuth: "group-powerauth"
            case .webhooks: "group-webhooks"
            case .limits: "group-limits"
            }
        }

        /// One line on what the group holds.
        var summary: String {
            switch self {
            case .actions: "What a tracked action starts as, how long its token and challenges live, what devices are shown."
            case .push: "Push credentials and their approvals; the providers that deliver pushes have their own page."
            case .qrCodes: "QR challenges a page starts with only the tenant ID."
            case .powerAuth: "The PowerAuth factors approvals need, and how activations start."
            case .webhooks: "Where the tenant's backend hears of authenticator events."
            case .limits: "Bounds against push bombing, fraud and guessing."
            }
        }
    }

    /// How the value is typed.
    enum Control: Sendable {
        /// A one-line text box (`numeric` asks phones for the number pad, without the browser's own range check:
        /// the server's message is the one shown).
        case text(numeric: Bool)
        /// One of a few values.
        case choice([String])
        /// One entry per line.
        case lines
    }

    /// The group the page shows it in.
    let group: Group
    /// The form field's name and the control's element id.
    let name: String
    /// The control's label.
    let label: String
    /// One sentence on what the setting does.
    let effect: String
    /// What may be typed, shown under the control.
    let accepts: String
    let control: Control
    /// The current value, as the control shows it.
    let current: @Sendable (TenantSettings) -> String
    /// The stored value in words when the control's text does not say it well (a duration in units), else nil.
    var stored: @Sendable (TenantSettings) -> String? = { _ in nil }
    /// Reads a submitted value into `settings`; throws `AssentError.invalidRequest` naming the field when invalid.
    let apply: @Sendable (String, inout TenantSettings) throws -> Void

    /// The result of reading a submitted form (``read(_:into:)``).
    struct Outcome: Sendable {
        /// The settings with every valid value applied.
        var settings: TenantSettings
        /// Field name → message, for each value that was not valid.
        var errors: [String: String]
    }

    /// Reads every field of `form` into a copy of `settings`. A field missing from the form keeps its value. The
    /// settings are only meant to be stored when ``Outcome/errors`` is empty.
    static func read(_ form: [String: String], into settings: TenantSettings) -> Outcome {
        var outcome = Outcome(settings: settings, errors: [:])
        for field in all {
            guard let text = form[field.name] else { continue }
            do {
                try field.apply(text, &outcome.settings)
            } catch let error as AssentError {
                outcome.errors[field.name] = error.reason
            } catch {
                outcome.errors[field.name] = "\(field.label) is not valid."
            }
        }
        return outcome
    }

    /// A setting that is on or off, stored at `setting`.
    static func onOff(
        _ group: Group, name: String, label: String, effect: String,
        setting: any WritableKeyPath<TenantSettings, Bool> & Sendable
    ) -> ConsoleSettingField {
        ConsoleSettingField(
            group: group, name: name, label: label, effect: effect, accepts: "on or off", control: .choice(["on", "off"]),
            current: { $0[keyPath: setting] ? "on" : "off" },
            apply: { $1[keyPath: setting] = try TenantSettingRules.onOff($0, label) })
    }

    /// A whole number in `range`, stored at `setting`.
    static func number(
        _ group: Group, name: String, label: String, effect: String, range: ClosedRange<Int>,
        setting: any WritableKeyPath<TenantSettings, Int> & Sendable
    ) -> ConsoleSettingField {
        ConsoleSettingField(
            group: group, name: name, label: label, effect: effect,
            accepts: "a whole number from \(range.lowerBound) to \(range.upperBound)",
            control: .text(numeric: true),
            current: { String($0[keyPath: setting]) },
            apply: { $1[keyPath: setting] = try TenantSettingRules.number($0, label, range) })
    }

    /// A duration in seconds within `range`, stored at `setting`; the page says the range and the stored value in
    /// units.
    static func seconds(
        _ group: Group, name: String, label: String, effect: String, range: ClosedRange<Int>,
        setting: any WritableKeyPath<TenantSettings, Int> & Sendable
    ) -> ConsoleSettingField {
        ConsoleSettingField(
            group: group, name: name, label: label, effect: effect, accepts: secondsAccepted(range),
            control: .text(numeric: true),
            current: { String($0[keyPath: setting]) },
            stored: { duration($0[keyPath: setting]) },
            apply: { $1[keyPath: setting] = try TenantSettingRules.number($0, label, range) })
    }

    /// What a duration field accepts: "seconds, from 1 minute to 10 years".
    static func secondsAccepted(_ range: ClosedRange<Int>) -> String {
        "a number of seconds, from \(duration(range.lowerBound)) to \(duration(range.upperBound))"
    }

    /// `seconds` in the largest units that add up to it exactly: "10 years", "1 hour 30 minutes", "0 seconds" (a
    /// year is 365 days, as the settings' bounds count it).
    static func duration(_ seconds: Int) -> String {
        let units: [(Int, String)] = [(365 * 86_400, "year"), (86_400, "day"), (3600, "hour"), (60, "minute"), (1, "second")]
        guard seconds > 0 else { return "\(seconds) seconds" }
        var left = seconds
        var parts: [String] = []
        for (size, name) in units where left >= size {
            let count = left / size
            left -= count * size
            parts.append("\(count) \(name)\(count == 1 ? "" : "s")")
        }
        return parts.joined(separator: " ")
    }

    /// The PowerAuth signature factors approvals need, or none, stored at `setting`.
    static func factor(
        _ group: Group, name: String, label: String, effect: String,
        setting: any WritableKeyPath<TenantSettings, PowerAuthSignatureType?> & Sendable
    ) -> ConsoleSettingField {
        ConsoleSettingField(
            group: group, name: name, label: label, effect: effect, accepts: "a PowerAuth signature type, or none",
            control: .choice(["none"] + PowerAuthSignatureType.allCases.map(\.rawValue)),
            current: { $0[keyPath: setting]?.rawValue ?? "none" },
            apply: { $1[keyPath: setting] = try TenantSettingRules.factor($0, label) })
    }

    /// A setting that may be left empty (stored as nil), stored at `setting`: `shown` writes a stored value, `read`
    /// reads one that is not empty, given the text and the label to name in its message; `words` says a stored value
    /// in words when the text does not (a duration).
    static func optional<Value>(
        _ group: Group, name: String, label: String, effect: String, accepts: String, numeric: Bool,
        setting: any WritableKeyPath<TenantSettings, Value?> & Sendable, shown: @escaping @Sendable (Value) -> String,
        words: (@Sendable (Value) -> String)? = nil, read: @escaping @Sendable (String, String) throws -> Value?
    ) -> ConsoleSettingField {
        ConsoleSettingField(
            group: group, name: name, label: label, effect: effect, accepts: accepts, control: .text(numeric: numeric),
            current: { $0[keyPath: setting].map(shown) ?? "" },
            stored: { settings in words.flatMap { words in settings[keyPath: setting].map(words) } },
            apply: { text, settings in
                settings[keyPath: setting] = text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try read(text, label)
            })
    }

    /// Comma-separated keys, or none, stored at `setting`.
    static func keys(
        _ group: Group, name: String, label: String, effect: String,
        setting: any WritableKeyPath<TenantSettings, [String]> & Sendable
    ) -> ConsoleSettingField {
        ConsoleSettingField(
            group: group, name: name, label: label, effect: effect, accepts: "comma-separated keys, or empty", control: .text(numeric: false),
            current: { $0[keyPath: setting].joined(separator: ", ") },
            apply: { $1[keyPath: setting] = TenantSettingRules.keys($0) })
    }

    /// Every setting the page shows, in its order: grouped (``Group``), each group's fields together.
    static let all: [ConsoleSettingField] = {
        typealias Rules = TenantSettingRules
        @Sendable func lines(_ text: String) -> [String] {
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return [
            ConsoleSettingField(
                group: .actions, name: "unenrolledState", label: "Unenrolled state",
                effect: "The state an action tracked for a user without an authenticator gets, unless an action rule says otherwise.",
                accepts: "one of the action states", control: .choice(ActionState.allCases.map(\.rawValue)),
                current: { $0.unenrolledState.rawValue },
                apply: { $1.unenrolledState = try Rules.state($0, "Unenrolled state") }),
            ConsoleSettingField(
                group: .actions, name: "actionRules", label: "Action rules",
                effect: "Per action code, the state for enrolled and for unenrolled users, instead of the defaults.",
                accepts: "one per line: ACTION:ENROLLED_STATE:UNENROLLED_STATE (a state may be left empty)", control: .lines,
                current: { settings in
                    settings.actionRules.sorted { $0.key < $1.key }.map {
                        "\($0.key):\($0.value.enrolled?.rawValue ?? ""):\($0.value.unenrolled?.rawValue ?? "")"
                    }.joined(separator: "\n")
                },
                apply: { text, settings in
                    var rules: [String: TenantSettings.ActionRule] = [:]
                    for line in lines(text) {
                        let (action, rule) = try Rules.actionRule(line, "Action rules")
                        rules[action] = rule.enrolled == nil && rule.unenrolled == nil ? nil : rule
                    }
                    settings.actionRules = rules
                }),
            .optional(
                .actions, name: "tokenLifetimeSeconds", label: "Token lifetime",
                effect: "How long a track token lives; empty uses the server's --token-lifetime.",
                accepts: secondsAccepted(Rules.tokenLifetime) + ", or empty", numeric: true,
                setting: \.tokenLifetimeSeconds, shown: { String($0) }, words: { duration($0) },
                read: { try Rules.tokenLifetime($0, $1) }),
            .seconds(
                .actions, name: "challengeTimeoutSeconds", label: "Challenge timeout",
                effect: "How long a push or QR challenge stays open before it expires.",
                range: Rules.challengeTimeout, setting: \.challengeTimeoutSeconds),
            .keys(
                .actions, name: "publicCustomKeys", label: "Public custom keys",
                effect: "Keys of an action's custom data the approving device is shown.",
                setting: \.publicCustomKeys),
            .keys(
                .actions, name: "publicUserCustomKeys", label: "Public user custom keys",
                effect: "Keys of a user's custom data the approving device is shown.",
                setting: \.publicUserCustomKeys),
            .onOff(
                .actions, name: "requireBoundSignature", label: "Require bound signature",
                effect: "Answers must carry Assent's bound decision signature, which the official SDKs cannot make.",
                setting: \.requireBoundSignature),
            .optional(
                .push, name: "pushCredentialLifetimeSeconds", label: "Push credential lifetime",
                effect: "How long a push credential lives unless its device renews it; empty means credentials never lapse.",
                accepts: secondsAccepted(Rules.pushCredentialLifetime) + ", or empty", numeric: true,
                setting: \.pushCredentialLifetimeSeconds, shown: { String($0) }, words: { duration($0) },
                read: { try Rules.number($0, $1, Rules.pushCredentialLifetime) }),
            .onOff(
                .push, name: "numberMatching", label: "Number matching",
                effect: "Push approvals must carry the code the initiating page shows.",
                setting: \.numberMatching),
            ConsoleSettingField(
                group: .qrCodes, name: "anonymousActionCodes", label: "Anonymous actions",
                effect: "The action codes a QR start with only the tenant ID may name; anyone who knows the ID can start one.",
                accepts: "comma-separated action codes, or empty for none", control: .text(numeric: false),
                current: { $0.anonymousActionCodes.joined(separator: ", ") },
                apply: { text, settings in
                    settings.anonymousActionCodes = text.trimmingCharacters(in: .whitespaces).isEmpty
                        ? [] : try Rules.anonymousActions(text, "Anonymous actions")
                }),
            .factor(
                .qrCodes, name: "anonymousApprovalFactor", label: "Anonymous approval factor",
                effect: "The factors approvals of anonymous QR challenges need; none follows the required approval factor.",
                setting: \.anonymousApprovalFactor),
            .factor(
                .powerAuth, name: "requiredApprovalFactor", label: "Required approval factor",
                effect: "Push and QR approvals must carry a PowerAuth signature with at least these factors.",
                setting: \.requiredApprovalFactor),
            ConsoleSettingField(
                group: .powerAuth, name: "approvalFactorRules", label: "Action approval factors",
                effect: "Per action code, the factors its approvals need, instead of the required approval factor.",
                accepts: "one per line: ACTION:TYPE", control: .lines,
                current: { $0.approvalFactorRules.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.rawValue)" }
                    .joined(separator: "\n") },
                apply: { text, settings in
                    var rules: [String: PowerAuthSignatureType] = [:]
                    for line in lines(text) {
                        let (action, factor) = try Rules.approvalFactorRule(line, "Action approval factors")
                        rules[action] = factor
                    }
                    settings.approvalFactorRules = rules
                }),
            .onOff(
                .powerAuth, name: "requireActivationCommit", label: "Require activation commit",
                effect: "New PowerAuth activations wait until the backend commits them.",
                setting: \.requireActivationCommit),
            .onOff(
                .powerAuth, name: "allowLegacyPowerAuth30", label: "Allow PowerAuth 3.0",
                effect: "PowerAuth 3.0 signatures (decimal, easier to guess) are accepted.",
                setting: \.allowLegacyPowerAuth30),
            .optional(
                .webhooks, name: "webhookURL", label: "Webhook URL",
                effect: "Where authenticator events are posted, signed with the tenant's secret key; empty sends none.",
                accepts: "an http(s) URL, or empty", numeric: false,
                setting: \.webhookURL, shown: { $0 }, read: { try Rules.webhookURL($0, $1) }),
            .number(
                .limits, name: "maxPendingPushChallenges", label: "Most pending pushes",
                effect: "How many push challenges a user may have open at once; further starts are refused.",
                range: Rules.maxPendingPush, setting: \.maxPendingPushChallenges),
            .seconds(
                .limits, name: "pushThrottleSeconds", label: "Push throttle",
                effect: "How long push starts are refused after failed pushes, doubling with each further failure.",
                range: Rules.pushThrottle, setting: \.pushThrottleSeconds),
            .seconds(
                .limits, name: "fraudLockSeconds", label: "Fraud lock",
                effect: "How long push starts are locked after a device reports a push as not theirs.",
                range: Rules.fraudLock, setting: \.fraudLockSeconds),
            .number(
                .limits, name: "maxFailedAttempts", label: "Most failed attempts",
                effect: "Failed PowerAuth signatures after which an activation is blocked.",
                range: Rules.maxFailedAttempts, setting: \.maxFailedAttempts),
        ]
    }()
}
