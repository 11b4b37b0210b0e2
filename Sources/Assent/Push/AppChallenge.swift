public import AssentWire

/// A pending push challenge with the context the device shows before the user approves or denies it.
public struct AppChallenge: Codable, Sendable, Hashable {
    /// The challenge to answer with ``AssentPush/updateChallenge(challengeId:approved:verificationCode:)``.
    public var challengeId: String
    /// The user being challenged.
    public var userId: String
    /// The action being approved, e.g. `signIn`.
    public var actionCode: String?
    /// The tracked action's idempotency key.
    public var idempotencyKey: String?
    /// The initiating device's ID, when the track request gave one.
    public var deviceId: String?
    /// The initiating browser's user agent, when the track request gave one.
    public var userAgent: String?
    /// The initiating request's IP address, when the track request gave one.
    public var ipAddress: String?
    /// When the challenge expires, seconds since the Unix epoch.
    public var expiresAt: Int64?
    /// The action's custom data points marked public.
    public var custom: [String: JSONValue]?
    /// The user's custom data points marked public.
    public var user: ChallengeUser?
    /// Whether approving needs the verification code the initiating page shows (number matching).
    public var verificationCodeRequired: Bool?

    /// Creates the value.
    public init(
        challengeId: String, userId: String, actionCode: String? = nil, idempotencyKey: String? = nil,
        deviceId: String? = nil, userAgent: String? = nil, ipAddress: String? = nil, expiresAt: Int64? = nil,
        custom: [String: JSONValue]? = nil, user: ChallengeUser? = nil, verificationCodeRequired: Bool? = nil
    ) {
        self.challengeId = challengeId
        self.userId = userId
        self.actionCode = actionCode
        self.idempotencyKey = idempotencyKey
        self.deviceId = deviceId
        self.userAgent = userAgent
        self.ipAddress = ipAddress
        self.expiresAt = expiresAt
        self.custom = custom
        self.user = user
        self.verificationCodeRequired = verificationCodeRequired
    }

    init(challengeId: String, userId: String, _ response: PushChallengeResponse) {
        self.init(
            challengeId: challengeId, userId: userId, actionCode: response.actionCode,
            idempotencyKey: response.idempotencyKey, deviceId: response.deviceId, userAgent: response.userAgent,
            ipAddress: response.ipAddress, expiresAt: response.expiresAt, custom: response.custom, user: response.user,
            verificationCodeRequired: response.verificationCodeRequired)
    }
}
