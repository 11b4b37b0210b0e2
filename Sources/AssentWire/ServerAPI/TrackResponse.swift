/// `POST /v1/users/{userId}/actions/{action}`: what the backend does next, and the token for the client.
public struct TrackResponse: Codable, Sendable, Hashable, WireSchema {
    /// The action's state right after tracking.
    public var state: ActionState
    /// The key that names this action from now on.
    public var idempotencyKey: String
    /// A page where the user can complete the challenge.
    public var url: String
    /// The short-lived token for the client SDKs.
    public var token: String
    /// Whether the user has at least one authenticator.
    public var isEnrolled: Bool
    /// Methods the user has enrolled.
    public var enrolledVerificationMethods: [VerificationMethod]
    /// Methods the user may use for this action.
    public var allowedVerificationMethods: [VerificationMethod]
    /// The method a client should offer first, if any.
    public var defaultVerificationMethod: VerificationMethod?
    /// Rules that produced the state (none: Assent has no rules engine).
    public var ruleIds: [String]

    /// Creates a track response.
    public init(
        state: ActionState, idempotencyKey: String, url: String, token: String, isEnrolled: Bool,
        enrolledVerificationMethods: [VerificationMethod], allowedVerificationMethods: [VerificationMethod],
        defaultVerificationMethod: VerificationMethod?, ruleIds: [String] = []
    ) {
        self.state = state
        self.idempotencyKey = idempotencyKey
        self.url = url
        self.token = token
        self.isEnrolled = isEnrolled
        self.enrolledVerificationMethods = enrolledVerificationMethods
        self.allowedVerificationMethods = allowedVerificationMethods
        self.defaultVerificationMethod = defaultVerificationMethod
        self.ruleIds = ruleIds
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("What the backend does next, and the token for the client.", [
        .field("state", \.state, "The action's state right after tracking."),
        .field("idempotencyKey", \.idempotencyKey, "The key that names this action from now on."),
        .field("url", \.url, "A page where the user can complete the challenge."),
        .field("token", \.token, "The short-lived track token for the client SDKs."),
        .field("isEnrolled", \.isEnrolled, "Whether the user has at least one authenticator."),
        .field("enrolledVerificationMethods", \.enrolledVerificationMethods, "Methods the user has enrolled."),
        .field("allowedVerificationMethods", \.allowedVerificationMethods, "Methods the user may use for this action."),
        .optional("defaultVerificationMethod", \.defaultVerificationMethod, "The method a client should offer first, if any."),
        .field("ruleIds", \.ruleIds, "Rules that produced the state (none: Assent has no rules engine)."),
    ])
}
