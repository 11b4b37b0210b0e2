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
    ) async throws -> ChallengeAndAction
    /// What a push start reads, together (one round trip on PostgreSQL): the action named by `idempotencyKey`,
    /// `userID`'s push guard with the expiries it has not counted by `now` (as ``PushGuardStore/pushGuard(tenantID:userID:now:)``),
    /// and the user's authenticators.
    func pushStartReads(
        tenantID: String, idempotencyKey: String, userID: String, now: Int64
    ) async throws -> PushStartReads
    /// The newest open push challenge of `userID` that `authenticatorID` may answer.
    func pendingPushChallenge(tenantID: String, userID: String, authenticatorID: String, now: Int64) async throws -> Challenge?
    /// What a device's get-challenge reads, together (one round trip on PostgreSQL): the push credential whose public
    /// key (canonical SPKI DER) is `publicKey` and the newest open push challenge it may answer (as
    /// ``pendingPushChallenge(tenantID:userID:authenticatorID:now:)`` for its user and id; nil without a credential).
    /// The credential is returned as stored, expired or not: judging it is the caller's.
    func pushCredentialAndPendingChallenge(
        tenantID: String, publicKey: [UInt8], now: Int64
    ) async throws -> CredentialAndChallenge
    /// What a device's answer reads, together (one round trip on PostgreSQL): the credential of `method` whose public
    /// key is `publicKey` (as stored, expired or not) and the challenge with id `challengeID`, whoever's it is.
    func credentialAndChallenge(
        tenantID: String, method: VerificationMethod, publicKey: [UInt8], challengeID: String
    ) async throws -> CredentialAndChallenge
    /// Records a device's answer, once, in one transaction: moves the challenge from an open state in `from` to
    /// `approved` or `denied` (only while unexpired), sets its action's state and verification method, and stamps
    /// the authenticator's last verification. Returns the updated challenge, or nil when it was not open. With
    /// `pushGuardOf`, it also reads that user's push guard and the expiries it has not counted by `now` (as
    /// ``PushGuardStore/pushGuard(tenantID:userID:now:)``), after the answer committed — in the answer's round trip on
    /// PostgreSQL; nil when that read did not happen (then the caller reads it itself). With `appAttestCounter`, the
    /// same transaction also advances the authenticator's App Attest counter to it, only while the stored one is
    /// below it (compare-and-set): otherwise it throws ``AppAttestCounterUsed`` and changes nothing, so of two
    /// answers carrying one counter at most one is recorded. With `recording`, the same transaction appends its
    /// sign-in row and queues its webhook events, only if the answer moved the challenge.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, pushGuardOf: String?, appAttestCounter: Int64?,
        recording: SignInRecording?
    ) async throws -> ChallengeAnswerOutcome
    /// Records a device's answer as ``answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:appAttestCounter:recording:)``
    /// does and, in the same transaction, applies `guardChange` to its user's push guard (holding the user's lock,
    /// as ``PushGuardStore/updatePushGuard(tenantID:userID:now:timeline:events:_:)`` does, with its timeline entries
    /// and events), appends `audit` and `recording`'s sign-in row and events: all of it or nothing — a device's
    /// fraud report. Returns the updated challenge, or nil (with nothing changed) when it was not open.
    /// `appAttestCounter` advances as in the answer above.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, changing guardChange: PushGuardChange, audit: AuditAppend?,
        appAttestCounter: Int64?, recording: SignInRecording?
    ) async throws -> Challenge?
    /// Claims an open QR challenge for `authenticator`, once: moves it from `pending` to `claimed` while unexpired
    /// and unclaimed. For an anonymous challenge (no user yet) it binds the authenticator's user and records
    /// `anonymousAction` (with that user) as its action in the same transaction. Returns the claimed challenge, or nil
    /// when it was not open (someone else won, or it expired).
    func claimChallenge(
        tenantID: String, id: String, authenticator: Authenticator, anonymousAction: Action?, now: Int64
    ) async throws -> Challenge?
}
