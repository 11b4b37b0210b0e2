/// A challenge and the action named by an idempotency key, read together
/// (``ChallengeStore/challengeAndAction(tenantID:id:idempotencyKey:)``: one round trip on PostgreSQL).
package struct ChallengeAndAction: Sendable, Hashable {
    /// The challenge with the id asked for; nil when there is none in the tenant.
    package var challenge: Challenge?
    /// The action named by the idempotency key asked for; nil when there is none.
    package var action: Action?

    /// What a store reports after reading `challenge` and `action`.
    package init(challenge: Challenge?, action: Action?) {
        self.challenge = challenge
        self.action = action
    }
}
