package import AssentWire

/// Push and QR challenges: opened under a per-user cap, answered or claimed once. Every method is one atomic, durable
/// unit (see ``ServerStore``).
package protocol ChallengeStore: Sendable {
    /// Stores a new challenge unless its user already has `maxOpenForUser` open ones of its kind (counted in the
    /// same transaction, so concurrent starts cannot pass the cap); false when refused.
    func insertChallenge(_ challenge: Challenge, maxOpenForUser: Int?) async throws -> Bool
    /// The challenge with this id in this tenant.
    func challenge(tenantID: String, id: String) async throws -> Challenge?
    /// The challenge with this id and the action named by `idempotencyKey` (read together: one round trip on
    /// PostgreSQL).
    func challengeAndAction(
        tenantID: String, id: String, idempotencyKey: String
    ) async throws -> (challenge: Challenge?, action: Action?)
    /// What a push start reads, together (one round trip on PostgreSQL): the action named by `idempotencyKey`,
    /// `userID`'s push guard with the expiries it has not counted by `now` (as ``PushGuardStore/pushGuard(tenantID:userID:now:)``),
    /// and the user's authenticators.
    func pushStartReads(
        tenantID: String, idempotencyKey: String, userID: String, now: Int64
    ) async throws -> (action: Action?, pushGuard: PushGuard?, expiredAt: [Int64], authenticators: [Authenticator])
    /// The newest open push challenge of `userID` that `authenticatorID` may answer.
    func pendingPushChallenge(tenantID: String, userID: String, authenticatorID: String, now: Int64) async throws -> Challenge?
    /// Records a device's answer, once, in one transaction: moves the challenge from an open state in `from` to
    /// `approved` or `denied` (only while unexpired), sets its action's state and verification method, and stamps
    /// the authenticator's last verification. Returns the updated challenge, or nil when it was not open.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64
    ) async throws -> Challenge?
    /// Claims an open QR challenge for `authenticator`, once: moves it from `pending` to `claimed` while unexpired
    /// and unclaimed. For an anonymous challenge (no user yet) it binds the authenticator's user and records
    /// `anonymousAction` (with that user) as its action in the same transaction. Returns the claimed challenge, or nil
    /// when it was not open (someone else won, or it expired).
    func claimChallenge(
        tenantID: String, id: String, authenticator: Authenticator, anonymousAction: Action?, now: Int64
    ) async throws -> Challenge?
}
