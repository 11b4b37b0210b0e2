/// Public custom data of the user, as a device sees it.
public struct ChallengeUser: Codable, Sendable, Hashable {
    /// The user's custom keys the tenant marked public.
    public var custom: [String: JSONValue]?
    /// Creates the value.
    public init(custom: [String: JSONValue]?) { self.custom = custom }
}

/// `GET /v1/client/user-authenticators/push/challenge?publicKey=`: the pending challenge, or none
/// (`challengeId` null) — always 200.
public struct PushChallengeResponse: Codable, Sendable, Hashable {
    /// The credential asking (always present).
    public var userAuthenticatorId: String
    /// The pending challenge, or nil when there is none.
    public var challengeId: String?
    /// The user.
    public var userId: String?
    /// The action code.
    public var actionCode: String?
    /// The action's idempotency key.
    public var idempotencyKey: String?
    /// Context from the initiating request.
    public var deviceId: String?
    /// Context from the initiating request.
    public var userAgent: String?
    /// Context from the initiating request.
    public var ipAddress: String?
    /// Expiry, seconds since the epoch.
    public var expiresAt: Int64?
    /// Public custom data of the action (only when the request was signed).
    public var custom: [String: JSONValue]?
    /// Public custom data of the user (only when the request was signed).
    public var user: ChallengeUser?
    /// Whether approving needs a verification code (number matching) shown by the initiating page.
    public var verificationCodeRequired: Bool?

    /// Creates a response.
    public init(userAuthenticatorId: String) { self.userAuthenticatorId = userAuthenticatorId }

    private enum CodingKeys: String, CodingKey {
        case userAuthenticatorId, challengeId, userId, actionCode, idempotencyKey, deviceId, userAgent, ipAddress,
             expiresAt, custom, user, verificationCodeRequired
    }

    /// Encodes the response; `challengeId` and `userId` are written as `null` when nothing is pending, as clients
    /// expect, and other absent fields are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userAuthenticatorId, forKey: .userAuthenticatorId)
        try container.encode(challengeId, forKey: .challengeId)
        try container.encode(userId, forKey: .userId)
        try container.encodeIfPresent(actionCode, forKey: .actionCode)
        try container.encodeIfPresent(idempotencyKey, forKey: .idempotencyKey)
        try container.encodeIfPresent(deviceId, forKey: .deviceId)
        try container.encodeIfPresent(userAgent, forKey: .userAgent)
        try container.encodeIfPresent(ipAddress, forKey: .ipAddress)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(custom, forKey: .custom)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encodeIfPresent(verificationCodeRequired, forKey: .verificationCodeRequired)
    }
}

/// `POST .../push/challenge` and `.../qr-code/challenge`: approve or deny, signed over the challenge id.
public struct UpdateChallengeRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The challenge.
    public var challengeId: String
    /// The credential's public key.
    public var publicKey: String
    /// Approve (true) or deny (false).
    public var approved: Bool
    /// Base64 DER ECDSA signature over the challenge id (the compatible form); a bound credential signs
    /// ``SignedMessage/decision(credentialId:challengeId:approved:verificationCode:)`` here too.
    public var signature: String
    /// The code the initiating page shows, when number matching is on.
    public var verificationCode: String?
    /// Assent's bound signature over ``SignedMessage/decision(credentialId:challengeId:approved:verificationCode:)``,
    /// so that `approved` and the code cannot be altered in transit: required from a bound credential and wherever
    /// the tenant requires it.
    public var boundSignature: String?
    /// "This wasn't me", on a denial of a push challenge (Assent's; the official SDKs never send it): push is locked
    /// for the user for a while. Covered by the bound signature when one is sent.
    public var reportFraud: Bool?

    /// Creates a request.
    public init(
        challengeId: String, publicKey: String, approved: Bool, signature: String, verificationCode: String? = nil,
        boundSignature: String? = nil, reportFraud: Bool? = nil
    ) {
        self.challengeId = challengeId
        self.publicKey = publicKey
        self.approved = approved
        self.signature = signature
        self.verificationCode = verificationCode
        self.boundSignature = boundSignature
        self.reportFraud = reportFraud
    }

    /// Reads the request with the server's limits; `verificationCode` may be null (Android sends it so).
    public init(reading body: some WireObject) throws(WireDecodingError) {
        guard let approved = try body.bool("approved") else { throw .required("approved") }
        self.approved = approved
        challengeId = try body.requiredString("challengeId", maxLength: WireFieldLimit.challengeId)
        publicKey = try body.requiredString("publicKey", maxLength: WireFieldLimit.publicKey)
        signature = try body.requiredString("signature", maxLength: WireFieldLimit.signature)
        verificationCode = try body.string("verificationCode", maxLength: 16)
        boundSignature = try body.string("boundSignature", maxLength: WireFieldLimit.signature)
        reportFraud = try body.bool("reportFraud")
    }
}

/// The answer to an update challenge.
public struct UpdateChallengeResponse: Codable, Sendable, Hashable {
    /// True when the answer was recorded.
    public var isVerified: Bool
    /// Creates a response.
    public init(isVerified: Bool) { self.isVerified = isVerified }
}

/// `POST /v1/client/challenge/push` (Bearer track token).
public struct StartPushChallengeRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The action code (the token's action is used when absent).
    public var action: String?
    /// Target one authenticator instead of all eligible ones.
    public var userAuthenticatorId: String?
    /// Creates a request.
    public init(action: String? = nil, userAuthenticatorId: String? = nil) {
        self.action = action
        self.userAuthenticatorId = userAuthenticatorId
    }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        action = try body.string("action", maxLength: 100)
        userAuthenticatorId = try body.string("userAuthenticatorId", maxLength: 200)
    }
}

/// One targeted authenticator's delivery result.
public struct DeliveryResult: Codable, Sendable, Hashable {
    /// The authenticator.
    public var userAuthenticatorId: String
    /// Why delivery failed, when it did.
    public var errorCode: String?
    /// Creates a result.
    public init(userAuthenticatorId: String, errorCode: String? = nil) {
        self.userAuthenticatorId = userAuthenticatorId
        self.errorCode = errorCode
    }
}

/// The answer to starting a push challenge.
public struct StartPushChallengeResponse: Codable, Sendable, Hashable {
    /// The new challenge.
    public var challengeId: String
    /// Expiry (ISO-8601).
    public var expiresAt: String?
    /// The code the user must enter on the device, when number matching is on.
    public var verificationCode: String?
    /// Per-authenticator delivery results.
    public var deliveryResults: [DeliveryResult]?
    /// Creates a response.
    public init(challengeId: String, expiresAt: String?, verificationCode: String?, deliveryResults: [DeliveryResult]?) {
        self.challengeId = challengeId
        self.expiresAt = expiresAt
        self.verificationCode = verificationCode
        self.deliveryResults = deliveryResults
    }
}

/// `POST /v1/client/verify/push` (Bearer track token).
public struct VerifyPushRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The challenge.
    public var challengeId: String
    /// Creates a request.
    public init(challengeId: String) { self.challengeId = challengeId }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        challengeId = try body.requiredString("challengeId", maxLength: WireFieldLimit.challengeId)
    }
}

/// The state of a push challenge as the initiating page sees it.
public struct VerifyPushResponse: Codable, Sendable, Hashable {
    /// Approved.
    public var isVerified: Bool
    /// Answered (approved or denied) or expired.
    public var isConsumed: Bool
    /// For the backend's `POST /v1/validate`, once approved.
    public var accessToken: String?
    /// Creates a response.
    public init(isVerified: Bool, isConsumed: Bool, accessToken: String?) {
        self.isVerified = isVerified
        self.isConsumed = isConsumed
        self.accessToken = accessToken
    }
}

/// `POST /v1/client/challenge/qr-code`: anonymous (tenant Basic, with `action` and `custom`) or for a tracked action
/// (Bearer track token, whose action and custom data are used).
public struct StartQRChallengeRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The action code (anonymous challenges).
    public var action: String?
    /// Custom data: read for compatibility and never shown to a device (an anonymous caller is not the tenant; the
    /// device sees only the custom data the backend tracked).
    public var custom: [String: JSONValue]?
    /// Creates a request.
    public init(action: String? = nil, custom: [String: JSONValue]? = nil) {
        self.action = action
        self.custom = custom
    }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        action = try body.actionCode("action")
        custom = try body.object("custom", maxBytes: 4096)
    }
}

/// The answer to starting a QR challenge.
public struct StartQRChallengeResponse: Codable, Sendable, Hashable {
    /// The challenge (what the QR code carries).
    public var challengeId: String
    /// Expiry (ISO-8601).
    public var expiresAt: String
    /// The poll secret: only its holder learns the result through `verify/qr-code`.
    public var deviceCode: String?
    /// The text to render as the QR code (``QRPayload``).
    public var qrPayload: String?
    /// Creates a response.
    public init(challengeId: String, expiresAt: String, deviceCode: String?, qrPayload: String?) {
        self.challengeId = challengeId
        self.expiresAt = expiresAt
        self.deviceCode = deviceCode
        self.qrPayload = qrPayload
    }
}

/// `POST /v1/client/verify/qr-code` (tenant Basic).
public struct VerifyQRRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The challenge.
    public var challengeId: String
    /// The poll secret from the start.
    public var deviceCode: String
    /// Creates a request.
    public init(challengeId: String, deviceCode: String) {
        self.challengeId = challengeId
        self.deviceCode = deviceCode
    }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        challengeId = try body.requiredString("challengeId", maxLength: WireFieldLimit.challengeId)
        deviceCode = try body.requiredString("deviceCode", maxLength: 200)
    }
}

/// The state of a QR challenge for the page that shows it.
public struct VerifyQRResponse: Codable, Sendable, Hashable {
    /// A device claimed it.
    public var isClaimed: Bool
    /// Answered or expired.
    public var isConsumed: Bool
    /// Approved.
    public var isVerified: Bool
    /// For the backend's `POST /v1/validate`, once approved.
    public var accessToken: String?
    /// Creates a response.
    public init(isClaimed: Bool, isConsumed: Bool, isVerified: Bool, accessToken: String?) {
        self.isClaimed = isClaimed
        self.isConsumed = isConsumed
        self.isVerified = isVerified
        self.accessToken = accessToken
    }
}

/// `POST /v1/client/user-authenticators/qr-code/challenge/claim`: signed over the challenge id.
public struct ClaimChallengeRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The challenge from the QR code.
    public var challengeId: String
    /// The credential's public key.
    public var publicKey: String
    /// Base64 DER ECDSA signature over the challenge id (bound: ``SignedMessage/claim(credentialId:challengeId:)``).
    public var signature: String
    /// Creates a request.
    public init(challengeId: String, publicKey: String, signature: String) {
        self.challengeId = challengeId
        self.publicKey = publicKey
        self.signature = signature
    }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        challengeId = try body.requiredString("challengeId", maxLength: WireFieldLimit.challengeId)
        publicKey = try body.requiredString("publicKey", maxLength: WireFieldLimit.publicKey)
        signature = try body.requiredString("signature", maxLength: WireFieldLimit.signature)
    }
}

/// What the claiming device learns about who is asking.
public struct ClaimChallengeResponse: Codable, Sendable, Hashable {
    /// True when this device now holds the claim.
    public var success: Bool
    /// The initiating page's IP address. `assentd` always sends it (empty when unknown); optional here so an answer
    /// without it still decodes.
    public var ipAddress: String?
    /// The initiating page's user agent. `assentd` always sends it (empty when the page sent none).
    public var userAgent: String?
    /// The action code.
    public var actionCode: String?
    /// The action's idempotency key.
    public var idempotencyKey: String?
    /// Public custom data of the action.
    public var custom: [String: JSONValue]?
    /// Public custom data of the user.
    public var user: ChallengeUser?
    /// Where the initiating request came from, as the backend tracked it with the action (track's `location`);
    /// `null` when none was tracked, and always for an anonymous challenge (the server has no location database).
    public var location: String?

    /// Creates a response.
    public init(
        success: Bool, ipAddress: String?, userAgent: String?, actionCode: String?, idempotencyKey: String?,
        custom: [String: JSONValue]?, user: ChallengeUser?, location: String? = nil
    ) {
        self.success = success
        self.ipAddress = ipAddress
        self.userAgent = userAgent
        self.actionCode = actionCode
        self.idempotencyKey = idempotencyKey
        self.custom = custom
        self.user = user
        self.location = location
    }

    private enum CodingKeys: String, CodingKey {
        case success, ipAddress, userAgent, actionCode, idempotencyKey, custom, user, location
    }

    /// Encodes the response; `location` is written as `null` when unknown (the field the QR document lists is always
    /// there), other absent fields are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encodeIfPresent(ipAddress, forKey: .ipAddress)
        try container.encodeIfPresent(userAgent, forKey: .userAgent)
        try container.encodeIfPresent(actionCode, forKey: .actionCode)
        try container.encodeIfPresent(idempotencyKey, forKey: .idempotencyKey)
        try container.encodeIfPresent(custom, forKey: .custom)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encode(location, forKey: .location)
    }
}
