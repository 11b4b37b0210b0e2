public import AssentWire

/// What ``AssentQRCode/claimChallenge(challengeId:)`` returns: the context of the page that shows the QR code, for
/// the user to decide whether to approve. Field for field the specification's `ClaimChallengeResponse`, plus the
/// challenge's ID (which a caller claiming by payload text does not otherwise know).
public struct ClaimedChallenge: Codable, Sendable, Hashable {
    /// The claimed challenge, to answer with
    /// ``AssentQRCode/updateChallenge(challengeId:approved:verificationCode:)``.
    public var challengeId: String
    /// True when this device now holds the claim (the server answers an error otherwise).
    public var success: Bool
    /// The IP address of the page that started the challenge (or of the tracked action, for a token-bound one).
    /// Required, as the QR code document has it: `assentd` always sends it; empty when it was not known.
    public var ipAddress: String
    /// The user agent of that page (or of the tracked action). Always sent; empty when the page sent none.
    public var userAgent: String
    /// The action being approved, e.g. `kioskSignIn`.
    public var actionCode: String?
    /// The action's idempotency key (for an anonymous challenge, the action the claim created for this user).
    public var idempotencyKey: String?
    /// The action's custom data points marked public.
    public var custom: [String: JSONValue]?
    /// The user's custom data points marked public.
    public var user: ChallengeUser?
    /// Where the request that started the challenge came from, as the backend tracked it with the action (e.g.
    /// "Wellington, New Zealand"); nil when none was tracked, and always for an anonymous challenge: the server has
    /// no location database to derive one from the IP address.
    public var location: String?

    /// Creates the value.
    public init(
        challengeId: String, success: Bool, ipAddress: String, userAgent: String,
        actionCode: String? = nil, idempotencyKey: String? = nil, custom: [String: JSONValue]? = nil,
        user: ChallengeUser? = nil, location: String? = nil
    ) {
        self.challengeId = challengeId
        self.success = success
        self.ipAddress = ipAddress
        self.userAgent = userAgent
        self.actionCode = actionCode
        self.idempotencyKey = idempotencyKey
        self.custom = custom
        self.user = user
        self.location = location
    }

    init(challengeId: String, _ response: ClaimChallengeResponse) {
        self.init(
            challengeId: challengeId, success: response.success, ipAddress: response.ipAddress ?? "",
            userAgent: response.userAgent ?? "", actionCode: response.actionCode, idempotencyKey: response.idempotencyKey,
            custom: response.custom, user: response.user, location: response.location)
    }
}
