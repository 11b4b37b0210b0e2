package import AssentWire

/// Tracked actions and their states. Every method is one atomic, durable unit (see ``ServerStore``).
package protocol ActionStore: Sendable {
    /// Records a tracked action. In one transaction: reads the user's authenticators, lets `decide` pick the state
    /// (and fill in the rest of the action) from them, creates or updates the user record with `user`, and inserts
    /// the action. When an action with the same idempotency key exists for the same user and action code, returns it
    /// unchanged instead; for another user or action code it fails with `constraintViolation`.
    func trackAction(
        _ action: Action, user: @escaping @Sendable (User?) -> User,
        decide: @escaping @Sendable (inout Action, [Authenticator]) -> Void
    ) async throws -> TrackOutcome
    /// ``trackAction(_:user:decide:)`` with the user's change and the decision given as data, so that a store can say
    /// all of it in one statement (PostgreSQL: one round trip): `changes` is applied to the user record as
    /// ``UserChanges/applied(to:tenantID:userID:)`` does, and the action's state is picked by `states` from the
    /// user's authenticators. Same outcome and failures.
    func trackAction(_ action: Action, changes: UserChanges, states: TrackStates) async throws -> TrackOutcome
    /// The action named by its idempotency key.
    func action(tenantID: String, idempotencyKey: String) async throws -> Action?
    /// Sets an action's state (and verification method), stamping `stateUpdatedAt`; nil when it does not exist.
    func updateActionState(
        tenantID: String, idempotencyKey: String, state: ActionState, verificationMethod: VerificationMethod?, at: Int64
    ) async throws -> Action?
    /// Marks a successful validation, once: true for the first caller, false if it was already validated.
    func markActionValidated(tenantID: String, idempotencyKey: String, at: Int64) async throws -> Bool
    /// A token's validation in one unit: the action named by its key as it was read, and whether it was marked
    /// validated at `at` — only when `mark`, the action is `userID`'s `actionCode`, it succeeded
    /// (`CHALLENGE_SUCCEEDED` or `REVIEW_SUCCEEDED`) and it was never validated before (once, for the first caller).
    func validateAction(
        tenantID: String, idempotencyKey: String, userID: String, actionCode: String, mark: Bool, at: Int64
    ) async throws -> ActionValidation
}

extension ActionStore {
    /// ``trackAction(_:changes:states:)`` through ``trackAction(_:user:decide:)``, for a store with nothing to save.
    package func trackAction(_ action: Action, changes: UserChanges, states: TrackStates) async throws -> TrackOutcome {
        try await trackAction(
            action,
            user: { changes.applied(to: $0, tenantID: action.tenantID, userID: action.userID) },
            decide: { action, authenticators in action.state = states.state(for: authenticators) })
    }
}
