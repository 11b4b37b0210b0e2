/// `GET /v1/sign-ins`: a page of the tenant's authentication history, newest first.
public struct SignInListResponse: Codable, Sendable, Hashable, WireSchema {
    /// One sign-in attempt's outcome.
    public struct Entry: Codable, Sendable, Hashable, WireSchema {
        /// When it happened (ISO-8601).
        public var at: String
        /// The user.
        public var userId: String
        /// The tracked action's code, when the challenge had one.
        public var actionCode: String?
        /// `push` or `qr`.
        public var method: String
        /// The PowerAuth factors an approval was signed with, when the tenant required them.
        public var factor: String?
        /// The device credential that answered (for an expiry: the one the challenge was for, when known).
        public var userAuthenticatorId: String?
        /// `approved`, `declined`, `expired` or `refused`.
        public var outcome: String
        /// Why, when there is more to say than the outcome.
        public var reason: String?
        /// The initiating request's address.
        public var ipAddress: String?
        /// The initiating request's user agent.
        public var userAgent: String?
        /// Milliseconds from the challenge's start to the answer.
        public var verificationMs: Int64?
        /// The challenge.
        public var challengeId: String?

        /// An entry as the server reports it.
        public init(
            at: String, userId: String, actionCode: String?, method: String, factor: String?,
            userAuthenticatorId: String?, outcome: String, reason: String?, ipAddress: String?, userAgent: String?,
            verificationMs: Int64?, challengeId: String?
        ) {
            self.at = at
            self.userId = userId
            self.actionCode = actionCode
            self.method = method
            self.factor = factor
            self.userAuthenticatorId = userAuthenticatorId
            self.outcome = outcome
            self.reason = reason
            self.ipAddress = ipAddress
            self.userAgent = userAgent
            self.verificationMs = verificationMs
            self.challengeId = challengeId
        }

        /// The columns of the CSV export, in order (the JSON keys; an absent value is an empty cell).
        public static let exportColumns = [
            "at", "userId", "actionCode", "method", "factor", "userAuthenticatorId", "outcome", "reason", "ipAddress",
            "userAgent", "verificationMs", "challengeId",
        ]

        /// The entry's values in ``exportColumns``' order (nil where absent).
        public var exportValues: [String?] {
            [at, userId, actionCode, method, factor, userAuthenticatorId, outcome, reason, ipAddress, userAgent,
             verificationMs.map(String.init), challengeId]
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>(
            "One sign-in attempt's outcome in the authentication history.", name: "SignIn", [
                .field("at", \.at, Timestamp.wireDescription),
                .field("userId", \.userId, "The user."),
                .optional("actionCode", \.actionCode, "The tracked action's code, when the challenge had one."),
                .field("method", \.method, "push or qr."),
                .optional("factor", \.factor, "The PowerAuth factors an approval was signed with, when the tenant required them."),
                .optional("userAuthenticatorId", \.userAuthenticatorId, "The device credential that answered."),
                .field("outcome", \.outcome, "approved, declined, expired or refused."),
                .optional("reason", \.reason,
                          "Why: fraud_reported, verification_code_mismatch, expired, or a refusal's error code (challenge_closed, factor_required, ...)."),
                .optional("ipAddress", \.ipAddress, "The initiating request's address."),
                .optional("userAgent", \.userAgent, "The initiating request's user agent."),
                .optional("verificationMs", \.verificationMs, "Milliseconds from the challenge's start to the answer."),
                .optional("challengeId", \.challengeId, "The challenge."),
            ])
    }

    /// The entries, newest first.
    public var signIns: [Entry]
    /// Pass as `cursor` to read the next page; absent on the last page.
    public var nextCursor: String?

    /// A page.
    public init(signIns: [Entry], nextCursor: String?) {
        self.signIns = signIns
        self.nextCursor = nextCursor
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>(
        "A page of the tenant's authentication history, newest first.", name: "SignInList", [
            .field("signIns", \.signIns, "The sign-ins, newest first."),
            .optional("nextCursor", \.nextCursor, "Pass as cursor to read the next page; absent on the last page."),
        ])
}
