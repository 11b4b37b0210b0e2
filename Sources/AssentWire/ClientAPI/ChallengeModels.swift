/// Public custom data of the user, as a device sees it.
public struct ChallengeUser: Codable, Sendable, Hashable, WireSchema {
    /// The user's custom keys the tenant marked public.
    public var custom: [String: JSONValue]?
    /// Creates the value.
    public init(custom: [String: JSONValue]?) { self.custom = custom }

    /// The field and its description.
    package static let wireFields = WireFields<Self>("Public custom data of the user.", [
        .optional("custom", \.custom, "The user's custom keys the tenant marked public."),
    ])
}

/// `GET /v1/client/user-authenticators/push/challenge?publicKey=`: the pending challenge, or none
/// (`challengeId` null) — always 200.
public struct PushChallengeResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The pending challenge, or none (challengeId null).", name: "PushChallenge", [
        .field("userAuthenticatorId", \.userAuthenticatorId, "The credential asking (always present)."),
        .orNull("challengeId", \.challengeId, "The pending challenge, or null when there is none."),
        .orNull("userId", \.userId, "The user."),
        .optional("actionCode", \.actionCode, "The action code."),
        .optional("idempotencyKey", \.idempotencyKey, "The action's idempotency key."),
        .optional("deviceId", \.deviceId, "Context from the initiating request."),
        .optional("userAgent", \.userAgent, "Context from the initiating request."),
        .optional("ipAddress", \.ipAddress, "Context from the initiating request."),
        .optional("expiresAt", \.expiresAt, "Expiry, seconds since the epoch."),
        .optional("custom", \.custom, "Public custom data of the action (only when the request was signed)."),
        .optional("user", \.user, "Public custom data of the user (only when the request was signed)."),
        .optional("verificationCodeRequired", \.verificationCodeRequired,
                  "Whether approving needs a verification code (number matching) shown by the initiating page."),
    ])
}

/// `POST .../push/challenge` and `.../qr-code/challenge`: approve or deny, signed over the challenge id.
public struct UpdateChallengeRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
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
    /// Base64 of an App Attest assertion (CBOR `{signature, authenticatorData}`) whose clientDataHash is SHA-256 of
    /// the bound decision message: required from an App Attest credential where the tenant requires attested
    /// approvals (the official SDKs never send it).
    public var appAttestAssertion: String?

    /// Creates a request.
    public init(
        challengeId: String, publicKey: String, approved: Bool, signature: String, verificationCode: String? = nil,
        boundSignature: String? = nil, reportFraud: Bool? = nil, appAttestAssertion: String? = nil
    ) {
        self.challengeId = challengeId
        self.publicKey = publicKey
        self.approved = approved
        self.signature = signature
        self.verificationCode = verificationCode
        self.boundSignature = boundSignature
        self.reportFraud = reportFraud
        self.appAttestAssertion = appAttestAssertion
    }

    /// The fields, their limits and descriptions; `verificationCode` may be null (Android sends it so).
    package static let wireFields = WireFields<Self>(
        "Approve or deny, signed over the challenge id.",
        blank: { Self(challengeId: "", publicKey: "", approved: false, signature: "") }, [
            .requiredBool("approved", \.approved, "Approve (true) or deny (false)."),
            .requiredString("challengeId", \.challengeId, maxLength: WireFieldLimit.challengeId, "The challenge."),
            .requiredString("publicKey", \.publicKey, maxLength: WireFieldLimit.publicKey, "The credential's public key."),
            .requiredString("signature", \.signature, maxLength: WireFieldLimit.signature,
                            "Base64 DER ECDSA signature over the challenge id."),
            .string("verificationCode", \.verificationCode, maxLength: 16,
                    "The code the initiating page shows, when number matching is on (Android sends null without it).")
                .acceptingNull(),
            .string("boundSignature", \.boundSignature, maxLength: WireFieldLimit.signature,
                    "Assent's bound signature over the decision (required from a bound credential)."),
            .bool("reportFraud", \.reportFraud, "This wasn't me, on a denial of a push challenge."),
            .string("appAttestAssertion", \.appAttestAssertion, maxLength: AttestationStatement.maxBase64Length,
                    "Base64 of an App Attest assertion over SHA-256 of the bound decision message (where the tenant "
                        + "requires attested approvals)."),
        ])
}

/// The answer to an update challenge.
public struct UpdateChallengeResponse: Codable, Sendable, Hashable, WireSchema {
    /// True when the answer was recorded.
    public var isVerified: Bool
    /// Creates a response.
    public init(isVerified: Bool) { self.isVerified = isVerified }

    /// The field and its description.
    package static let wireFields = WireFields<Self>("The answer to an update challenge.", [
        .field("isVerified", \.isVerified, "True when the answer was recorded."),
    ])
}

/// `POST /v1/client/challenge/push` (Bearer track token).
public struct StartPushChallengeRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The action code (the token's action is used when absent).
    public var action: String?
    /// Target one authenticator instead of all eligible ones.
    public var userAuthenticatorId: String?
    /// Creates a request.
    public init(action: String? = nil, userAuthenticatorId: String? = nil) {
        self.action = action
        self.userAuthenticatorId = userAuthenticatorId
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>("Start a push challenge for the token's user.", blank: { Self() }, [
        .string("action", \.action, maxLength: 100, "The action code (the token's when absent)."),
        .string("userAuthenticatorId", \.userAuthenticatorId, maxLength: 200, "Target one authenticator."),
    ])
}

/// One targeted authenticator's delivery result.
public struct DeliveryResult: Codable, Sendable, Hashable, WireSchema {
    /// The authenticator.
    public var userAuthenticatorId: String
    /// Why delivery failed, when it did.
    public var errorCode: String?
    /// Creates a result.
    public init(userAuthenticatorId: String, errorCode: String? = nil) {
        self.userAuthenticatorId = userAuthenticatorId
        self.errorCode = errorCode
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("One targeted authenticator's delivery result.", [
        .field("userAuthenticatorId", \.userAuthenticatorId, "The authenticator."),
        .optional("errorCode", \.errorCode, "Why delivery failed, when it did."),
    ])
}

/// The answer to starting a push challenge.
public struct StartPushChallengeResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The new challenge.", [
        .field("challengeId", \.challengeId, "The new challenge."),
        .optional("expiresAt", \.expiresAt, Timestamp.wireDescription),
        .optional("verificationCode", \.verificationCode, "The code the user must enter on the device, when number matching is on."),
        .optional("deliveryResults", \.deliveryResults, "Per-authenticator delivery results."),
    ])
}

/// `POST /v1/client/verify/push` (Bearer track token).
public struct VerifyPushRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The challenge.
    public var challengeId: String
    /// Creates a request.
    public init(challengeId: String) { self.challengeId = challengeId }

    /// The field, its limit and description.
    package static let wireFields = WireFields<Self>("Poll a push challenge.", blank: { Self(challengeId: "") }, [
        .requiredString("challengeId", \.challengeId, maxLength: WireFieldLimit.challengeId, "The challenge."),
    ])
}

/// The state of a push challenge as the initiating page sees it.
public struct VerifyPushResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The state of a push challenge as the initiating page sees it.", [
        .field("isVerified", \.isVerified, "Approved."),
        .field("isConsumed", \.isConsumed, "Answered (approved or denied) or expired."),
        .optional("accessToken", \.accessToken, "For the backend's POST /v1/validate, once approved."),
    ])
}

/// `POST /v1/client/challenge/qr-code`: anonymous (tenant Basic, with `action` and `custom`) or for a tracked action
/// (Bearer track token, whose action and custom data are used).
public struct StartQRChallengeRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
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

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "Start a QR challenge: anonymous (tenant Basic, with action) or for a tracked action (Bearer track token).",
        blank: { Self() }, [
            .actionCode("action", \.action, "The action code (anonymous challenges)."),
            .object("custom", \.custom, maxBytes: 4096, "Custom data: read for compatibility and never shown to a device."),
        ])
}

/// The answer to starting a QR challenge.
public struct StartQRChallengeResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The new QR challenge.", [
        .field("challengeId", \.challengeId, "The challenge (what the QR code carries)."),
        .field("expiresAt", \.expiresAt, Timestamp.wireDescription),
        .optional("deviceCode", \.deviceCode, "The poll secret: only its holder learns the result."),
        .optional("qrPayload", \.qrPayload, "The text to render as the QR code."),
    ])
}

/// `POST /v1/client/verify/qr-code` (tenant Basic).
public struct VerifyQRRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The challenge.
    public var challengeId: String
    /// The poll secret from the start.
    public var deviceCode: String
    /// Creates a request.
    public init(challengeId: String, deviceCode: String) {
        self.challengeId = challengeId
        self.deviceCode = deviceCode
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>("Poll a QR challenge.", blank: { Self(challengeId: "", deviceCode: "") }, [
        .requiredString("challengeId", \.challengeId, maxLength: WireFieldLimit.challengeId, "The challenge."),
        .requiredString("deviceCode", \.deviceCode, maxLength: 200, "The poll secret from the start."),
    ])
}

/// The state of a QR challenge for the page that shows it.
public struct VerifyQRResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The state of a QR challenge for the page that shows it.", [
        .field("isClaimed", \.isClaimed, "A device claimed it."),
        .field("isConsumed", \.isConsumed, "Answered or expired."),
        .field("isVerified", \.isVerified, "Approved."),
        .optional("accessToken", \.accessToken, "For the backend's POST /v1/validate, once approved."),
    ])
}

/// `POST /v1/client/user-authenticators/qr-code/challenge/claim`: signed over the challenge id.
public struct ClaimChallengeRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
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

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "Claim a QR challenge, signed over the challenge id.",
        blank: { Self(challengeId: "", publicKey: "", signature: "") }, [
            .requiredString("challengeId", \.challengeId, maxLength: WireFieldLimit.challengeId, "The challenge from the QR code."),
            .requiredString("publicKey", \.publicKey, maxLength: WireFieldLimit.publicKey, "The credential's public key."),
            .requiredString("signature", \.signature, maxLength: WireFieldLimit.signature,
                            "Base64 DER ECDSA signature over the challenge id."),
        ])
}

/// What the claiming device learns about who is asking.
public struct ClaimChallengeResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("What the claiming device learns about who is asking.", [
        .field("success", \.success, "True when this device now holds the claim."),
        .optional("ipAddress", \.ipAddress, "The initiating page's IP address (empty when unknown)."),
        .optional("userAgent", \.userAgent, "The initiating page's user agent (empty when the page sent none)."),
        .optional("actionCode", \.actionCode, "The action code."),
        .optional("idempotencyKey", \.idempotencyKey, "The action's idempotency key."),
        .optional("custom", \.custom, "Public custom data of the action."),
        .optional("user", \.user, "Public custom data of the user."),
        .orNull("location", \.location, "Where the initiating request came from, as the backend tracked it; null when unknown."),
    ])
}
