/// What a push start reads, together (``ChallengeStore/pushStartReads(tenantID:idempotencyKey:userID:now:)``): one
/// round trip on PostgreSQL instead of three.
package struct PushStartReads: Sendable, Hashable {
    /// The action named by the start's idempotency key; nil when there is none yet.
    package var action: Action?
    /// The user's push guard and the expiries it has not counted by the start's `now`.
    package var pushGuard: PushGuardRead
    /// The user's authenticators, oldest first.
    package var authenticators: [Authenticator]

    /// What a store reports after reading `action`, `pushGuard` and `authenticators`.
    package init(action: Action?, pushGuard: PushGuardRead, authenticators: [Authenticator]) {
        self.action = action
        self.pushGuard = pushGuard
        self.authenticators = authenticators
    }
}
