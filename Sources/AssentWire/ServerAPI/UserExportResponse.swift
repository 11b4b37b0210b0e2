/// `GET /v1/users/{userId}/export`: everything Assent holds about a user, for a data-subject request. Nothing in it
/// is secret: credentials are public keys, and activations' sealed secrets are not included.
public struct UserExportResponse: Codable, Sendable, Hashable, WireSchema {
    /// One of the user's stored challenges (challenges are swept a day after they expire).
    public struct Challenge: Codable, Sendable, Hashable, WireSchema {
        /// Its id.
        public var challengeId: String
        /// `push` or `qr`.
        public var kind: String
        /// The action it verifies, when it has one.
        public var actionCode: String?
        /// `pending`, `claimed`, `approved`, `declined`, `expired`, ...
        public var state: String
        /// When it was made (ISO-8601).
        public var createdAt: String
        /// When it stops being answerable (ISO-8601).
        public var expiresAt: String
        /// When it was answered (ISO-8601), when it was.
        public var answeredAt: String?
        /// The authenticator that answered it, when one did.
        public var answeredBy: String?
        /// The address of the browser or backend request that started it, as recorded.
        public var ipAddress: String?
        /// The user agent of the request that started it, as recorded.
        public var userAgent: String?
        /// The device id the backend gave, when it gave one.
        public var deviceId: String?

        /// A challenge as stored.
        public init(
            challengeId: String, kind: String, actionCode: String?, state: String, createdAt: String, expiresAt: String,
            answeredAt: String?, answeredBy: String?, ipAddress: String?, userAgent: String?, deviceId: String?
        ) {
            self.challengeId = challengeId
            self.kind = kind
            self.actionCode = actionCode
            self.state = state
            self.createdAt = createdAt
            self.expiresAt = expiresAt
            self.answeredAt = answeredAt
            self.answeredBy = answeredBy
            self.ipAddress = ipAddress
            self.userAgent = userAgent
            self.deviceId = deviceId
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>("One of the user's stored challenges.", name: "UserExportChallenge", [
            .field("challengeId", \.challengeId, "Its id."),
            .field("kind", \.kind, "push or qr."),
            .optional("actionCode", \.actionCode, "The action it verifies, when it has one."),
            .field("state", \.state, "pending, claimed, approved, declined, expired, ..."),
            .field("createdAt", \.createdAt, Timestamp.wireDescription),
            .field("expiresAt", \.expiresAt, Timestamp.wireDescription),
            .optional("answeredAt", \.answeredAt, Timestamp.wireDescription),
            .optional("answeredBy", \.answeredBy, "The authenticator that answered it, when one did."),
            .optional("ipAddress", \.ipAddress, "The address of the request that started it, as recorded."),
            .optional("userAgent", \.userAgent, "The user agent of the request that started it, as recorded."),
            .optional("deviceId", \.deviceId, "The device id the backend gave, when it gave one."),
        ])
    }

    /// The user the export is about.
    public var userId: String
    /// When the export was read (ISO-8601).
    public var exportedAt: String
    /// The user record; absent when the tenant has none.
    public var user: UserResponse?
    /// The user's authenticators, with their attestation verdicts.
    public var authenticators: [UserAuthenticatorResponse]
    /// The user's PowerAuth activations.
    public var activations: [ActivationResponse]
    /// The user's tracked actions, oldest first.
    public var actions: [ActionResponse]
    /// The user's stored challenges, oldest first.
    public var challenges: [Challenge]
    /// The user's sign-in history, newest first.
    public var signIns: [SignInListResponse.Entry]
    /// The audit entries naming the user (as subject, or as `userId` in their details), this export's included.
    public var auditEntries: [AuditListResponse.Entry]

    /// An export.
    public init(
        userId: String, exportedAt: String, user: UserResponse?, authenticators: [UserAuthenticatorResponse],
        activations: [ActivationResponse], actions: [ActionResponse], challenges: [Challenge],
        signIns: [SignInListResponse.Entry], auditEntries: [AuditListResponse.Entry]
    ) {
        self.userId = userId
        self.exportedAt = exportedAt
        self.user = user
        self.authenticators = authenticators
        self.activations = activations
        self.actions = actions
        self.challenges = challenges
        self.signIns = signIns
        self.auditEntries = auditEntries
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("Everything Assent holds about a user.", name: "UserExport", [
        .field("userId", \.userId, "The user the export is about."),
        .field("exportedAt", \.exportedAt, Timestamp.wireDescription),
        .optional("user", \.user, "The user record; absent when the tenant has none."),
        .field("authenticators", \.authenticators, "The user's authenticators, with their attestation verdicts."),
        .field("activations", \.activations, "The user's PowerAuth activations."),
        .field("actions", \.actions, "The user's tracked actions, oldest first."),
        .field("challenges", \.challenges, "The user's stored challenges, oldest first."),
        .field("signIns", \.signIns, "The user's sign-in history, newest first."),
        .field("auditEntries", \.auditEntries, "The audit entries naming the user, this export's included."),
    ])
}
