import AssentWire

/// What a tenant decides: how tracked actions are answered and how long tokens live.
///
/// The state rule for a tracked action is, in order:
/// 1. a rule for that action code in ``actionRules`` (its `enrolled` or `unenrolled` state, whichever applies), if set;
/// 2. otherwise `CHALLENGE_REQUIRED` when the user has at least one authenticator;
/// 3. otherwise ``unenrolledState`` (default `ALLOW`).
public struct TenantSettings: Codable, Sendable, Hashable {
    /// Per-action overrides of the default rule.
    public struct ActionRule: Codable, Sendable, Hashable {
        /// State for users with at least one authenticator.
        public var enrolled: ActionState?
        /// State for users without one.
        public var unenrolled: ActionState?
        /// Creates a rule.
        public init(enrolled: ActionState? = nil, unenrolled: ActionState? = nil) {
            self.enrolled = enrolled
            self.unenrolled = unenrolled
        }
    }

    /// The state of an action tracked for a user without authenticators.
    public var unenrolledState: ActionState = .allow
    /// Overrides keyed by action code.
    public var actionRules: [String: ActionRule] = [:]
    /// Lifetime of track tokens in seconds; nil means the server's configured default.
    public var tokenLifetimeSeconds: Int?

    /// Default settings.
    public init() {}

    /// The state the rule above gives.
    public func state(forAction action: String, isEnrolled: Bool) -> ActionState {
        let rule = actionRules[action]
        if isEnrolled {
            return rule?.enrolled ?? .challengeRequired
        }
        return rule?.unenrolled ?? unenrolledState
    }

    /// Decodes settings, tolerating keys written by newer versions and missing keys written by older ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        unenrolledState = try container.decodeIfPresent(ActionState.self, forKey: .unenrolledState) ?? .allow
        actionRules = try container.decodeIfPresent([String: ActionRule].self, forKey: .actionRules) ?? [:]
        tokenLifetimeSeconds = try container.decodeIfPresent(Int.self, forKey: .tokenLifetimeSeconds)
    }
}
