/// One sign-in attempt's outcome, as the authentication history keeps it (``SignInHistoryStore``): compact — the
/// challenge itself goes a day after it expired, this row stays for the tenant's
/// ``TenantSettings/signInHistoryRetentionDays``.
package struct SignIn: Sendable, Hashable {
    /// How the attempt ended.
    package enum Outcome: String, Sendable, CaseIterable {
        /// A device approved the challenge.
        case approved
        /// A device denied it, reported it as fraud, or sent a wrong verification code (which declines it).
        case declined
        /// Nobody answered before it expired (recorded once, by the expiry count, see ``MetricsStore``).
        case expired
        /// A device's answer was refused and changed nothing: the challenge had closed, the credential may not answer
        /// it, or the tenant's PowerAuth factor was missing or did not verify.
        case refused
    }

    /// The store's number for the row (0 until stored); with ``at`` the order of the history and its cursor.
    package var id: Int64 = 0
    /// The tenant.
    package var tenantID: String
    /// When the outcome happened, milliseconds since the epoch.
    package var at: Int64
    /// The tracked action's code, when the challenge had one.
    package var actionCode: String?
    /// The user.
    package var userID: String
    /// `push` or `qr` (the challenge's kind).
    package var method: String
    /// The PowerAuth factors an approval was signed with (`possession_knowledge`, …), when it carried a signature.
    package var factor: String?
    /// The device credential that answered (or, for an expiry, the one the challenge was for), when known.
    package var credentialID: String?
    /// The outcome.
    package var outcome: Outcome
    /// Why: `fraud_reported`, `verification_code_mismatch`, `expired`, or a refusal's error code
    /// (`challenge_closed`, `factor_required`, …); nil for a plain approval or denial.
    package var reason: String?
    /// The initiating request's address.
    package var ipAddress: String?
    /// The initiating request's user agent.
    package var userAgent: String?
    /// Milliseconds from the challenge's start to the answer (nil for an expiry).
    package var verificationMilliseconds: Int64?
    /// The challenge.
    package var challengeID: String?

    /// An outcome of `user`'s sign-in in `tenantID` at `at`.
    package init(
        tenantID: String, at: Int64, userID: String, method: String, outcome: Outcome, reason: String? = nil
    ) {
        self.tenantID = tenantID
        self.at = at
        self.userID = userID
        self.method = method
        self.outcome = outcome
        self.reason = reason
    }

    /// The outcome of `challenge` (which has a user) at `at`, with its action, context and timing.
    package init(
        _ challenge: Challenge, userID: String, at: Int64, outcome: Outcome, reason: String?, credentialID: String?
    ) {
        self.init(
            tenantID: challenge.tenantID, at: at, userID: userID, method: challenge.kind.rawValue, outcome: outcome,
            reason: reason)
        actionCode = challenge.actionCode
        ipAddress = challenge.ipAddress
        userAgent = challenge.userAgent
        challengeID = challenge.id
        self.credentialID = credentialID
        verificationMilliseconds = outcome == .expired ? nil : max(0, at - challenge.createdAt)
    }
}
