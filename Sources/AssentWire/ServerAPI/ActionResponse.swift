/// `GET` and `PATCH /v1/users/{userId}/actions/{action}/{idempotencyKey}`: one tracked action.
public struct ActionResponse: Codable, Sendable, Hashable, WireSchema {
    /// The current state.
    public var state: ActionState
    /// When the state last changed (ISO-8601).
    public var stateUpdatedAt: String
    /// When the action was tracked (ISO-8601).
    public var createdAt: String
    /// The method that completed the challenge, once one did.
    public var verificationMethod: VerificationMethod?
    /// The action code.
    public var actionCode: String
    /// The idempotency key.
    public var idempotencyKey: String
    /// The user.
    public var userId: String
    /// Rules that fired (always empty: Assent decides by tenant settings, see the README).
    public var rules: [String]
    /// Output of the decision: the inputs it saw.
    public var output: [String: JSONValue]

    /// Creates an action response.
    public init(
        state: ActionState, stateUpdatedAt: String, createdAt: String, verificationMethod: VerificationMethod?,
        actionCode: String, idempotencyKey: String, userId: String, output: [String: JSONValue]
    ) {
        self.state = state
        self.stateUpdatedAt = stateUpdatedAt
        self.createdAt = createdAt
        self.verificationMethod = verificationMethod
        self.actionCode = actionCode
        self.idempotencyKey = idempotencyKey
        self.userId = userId
        self.rules = []
        self.output = output
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("One tracked action.", [
        .field("state", \.state, "The current state."),
        .field("stateUpdatedAt", \.stateUpdatedAt, Timestamp.wireDescription),
        .field("createdAt", \.createdAt, Timestamp.wireDescription),
        .optional("verificationMethod", \.verificationMethod, "The method that completed the challenge, once one did."),
        .field("actionCode", \.actionCode, "The action code."),
        .field("idempotencyKey", \.idempotencyKey, "The idempotency key."),
        .field("userId", \.userId, "The user."),
        .field("rules", \.rules, "Rules that fired (always empty)."),
        .field("output", \.output, "Output of the decision: the inputs it saw."),
    ])
}
