import AssentWire

/// A tracked action: one attempt by a user to do something the tenant wants verified.
public struct Action: Sendable, Hashable {
    /// The tenant.
    public var tenantID: String
    /// The user.
    public var userID: String
    /// What the user attempts, e.g. `signIn`.
    public var actionCode: String
    /// Unique per tenant; names the action from now on.
    public var idempotencyKey: String
    /// The current state.
    public var state: ActionState
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// Milliseconds since the epoch.
    public var stateUpdatedAt: Int64
    /// The method that completed the challenge, once one did.
    public var verificationMethod: VerificationMethod?
    /// Context from the initiating request.
    public var ipAddress: String?
    /// Context from the initiating request.
    public var userAgent: String?
    /// Context from the initiating request.
    public var deviceID: String?
    /// Where the initiating request came from, as the backend described it (e.g. "Wellington, NZ"); shown to the
    /// device that claims a QR challenge for this action. Assent has no location database: nothing fills it otherwise.
    public var location: String?
    /// Where a web flow returns to.
    public var redirectURL: String?
    /// Free-form data from the backend.
    public var custom: [String: JSONValue]?
    /// Scopes granted to the action's token, space separated.
    public var scope: String?
    /// When a token for this action was validated successfully (a success validates once).
    public var validatedAt: Int64?

    /// Creates an action.
    public init(
        tenantID: String, userID: String, actionCode: String, idempotencyKey: String, state: ActionState, now: Int64
    ) {
        self.tenantID = tenantID
        self.userID = userID
        self.actionCode = actionCode
        self.idempotencyKey = idempotencyKey
        self.state = state
        self.createdAt = now
        self.stateUpdatedAt = now
    }
}
