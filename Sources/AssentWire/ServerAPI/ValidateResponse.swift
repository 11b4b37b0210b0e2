/// `POST /v1/validate`: whether a token proves a completed challenge. A token proves it at most once.
public struct ValidateResponse: Codable, Sendable, Hashable, WireSchema {
    /// True when the action succeeded and this token had not been validated before.
    public var isValid: Bool
    /// The action's state, when the token named one.
    public var state: ActionState?
    /// When the state last changed (ISO-8601).
    public var stateUpdatedAt: String?
    /// The user the token belongs to.
    public var userId: String?
    /// The action code (the name the Python SDK reads).
    public var action: String?
    /// The action code (the name the Node SDK reads).
    public var actionCode: String?
    /// The action's idempotency key.
    public var idempotencyKey: String?
    /// The method that completed the challenge.
    public var verificationMethod: VerificationMethod?
    /// Why the token is not valid, when it is not.
    public var error: String?

    /// Creates a validate response.
    public init(
        isValid: Bool, state: ActionState? = nil, stateUpdatedAt: String? = nil, userId: String? = nil,
        actionCode: String? = nil, idempotencyKey: String? = nil, verificationMethod: VerificationMethod? = nil,
        error: String? = nil
    ) {
        self.isValid = isValid
        self.state = state
        self.stateUpdatedAt = stateUpdatedAt
        self.userId = userId
        self.action = actionCode
        self.actionCode = actionCode
        self.idempotencyKey = idempotencyKey
        self.verificationMethod = verificationMethod
        self.error = error
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>(
        "Whether a token proves a completed challenge. A token proves it at most once.", [
            .field("isValid", \.isValid, "True when the action succeeded and this token had not been validated before."),
            .optional("state", \.state, "The action's state, when the token named one."),
            .optional("stateUpdatedAt", \.stateUpdatedAt, Timestamp.wireDescription),
            .optional("userId", \.userId, "The user the token belongs to."),
            .optional("action", \.action, "The action code (the name the Python SDK reads)."),
            .optional("actionCode", \.actionCode, "The action code (the name the Node SDK reads)."),
            .optional("idempotencyKey", \.idempotencyKey, "The action's idempotency key."),
            .optional("verificationMethod", \.verificationMethod, "The method that completed the challenge."),
            .optional("error", \.error, "Why the token is not valid, when it is not."),
        ])
}
