/// The authentication history: one compact row per sign-in attempt's outcome (``SignIn``), kept for each tenant's
/// retention. Approvals and denials are written by the answer's own transaction
/// (``ChallengeStore/answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:recording:)``),
/// expiries by the expiry count's (``MetricsStore/countExpiredChallenges(through:)``), refusals — which change nothing
/// else — by ``recordSignIn(_:events:)``. Every method is one atomic, durable unit (see ``ServerStore``).
package protocol SignInHistoryStore: Sendable {
    /// Appends `signIn` with its webhook `events`, in one transaction.
    func recordSignIn(_ signIn: SignIn, events: [WebhookEvent]) async throws
    /// The rows `query` selects, newest first (by time, then number).
    func signIns(_ query: SignInQuery) async throws -> [SignIn]
    /// Every row of `userID` in `tenantID`, newest first (a user's data export).
    func signInHistory(tenantID: String, userID: String) async throws -> [SignIn]
    /// Deletes every row of `userID` in `tenantID` at once (a user's erasure); how many went.
    @discardableResult
    func deleteSignInHistory(tenantID: String, userID: String) async throws -> Int
    /// Deletes `tenantID`'s rows older than `before` (milliseconds), in bounded batches, each its own short write;
    /// how many went.
    func sweepSignInHistory(tenantID: String, before: Int64) async throws -> Int
}
