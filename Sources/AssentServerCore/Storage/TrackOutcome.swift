/// What ``ActionStore/trackAction(_:user:decide:)`` did.
package struct TrackOutcome: Sendable {
    /// The action as stored.
    package var action: Action
    /// The user's authenticators when the action was recorded.
    package var authenticators: [Authenticator]
    /// False when an existing action with the same idempotency key was returned.
    package var created: Bool

    /// What a store reports after recording (or finding) `action`.
    package init(action: Action, authenticators: [Authenticator], created: Bool) {
        self.action = action
        self.authenticators = authenticators
        self.created = created
    }
}
