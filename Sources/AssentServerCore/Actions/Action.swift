package import AssentWire

/// A tracked action: one attempt by a user to do something the tenant wants verified.
package struct Action: Sendable, Hashable {
    /// The tenant.
    package var tenantID: String
    /// The user.
    package var userID: String
    /// What the user attempts, e.g. `signIn`.
    package var actionCode: String
    /// Unique per tenant; names the action from now on.
    package var idempotencyKey: String
    /// The current state.
    package var state: ActionState
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// Milliseconds since the epoch.
    package var stateUpdatedAt: Int64
    /// The method that completed the challenge, once one did.
    package var verificationMethod: VerificationMethod?
    /// Context from the initiating request.
    package var ipAddress: String?
    /// Context from the initiating request.
    package var userAgent: String?
    /// Context from the initiating request.
    package var deviceID: String?
    /// Where the initiating request came from, as the backend described it (e.g. "Wellington, NZ"); shown to the
    /// device that claims a QR challenge for this action. Assent has no location database: nothing fills it otherwise.
    package var location: String?
    /// Where a web flow returns to.
    package var redirectURL: String?
    /// Free-form data from the backend.
    package var custom: [String: JSONValue]?
    /// Scopes granted to the action's token, space separated.
    package var scope: String?
    /// When a token for this action was validated successfully (a success validates once).
    package var validatedAt: Int64?

    /// Creates an action.
    package init(
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
