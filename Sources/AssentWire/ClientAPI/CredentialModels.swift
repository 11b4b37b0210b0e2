/// `POST /v1/client/user-authenticators/{push|qr-code}` (Bearer track token): enrol a device key.
public struct AddCredentialRequest: Codable, Sendable, Hashable, WireDecodable {
    /// Base64 (standard, padded) of the key's X.509 SubjectPublicKeyInfo DER.
    public var publicKey: String
    /// The device's name for itself.
    public var deviceName: String?
    /// `ios` or `android` (anything else is recorded as given).
    public var devicePlatform: String?
    /// Push token (APNs device token or FCM registration token), push credentials only.
    public var pushToken: String?
    /// iOS-style: every use of the key needs user presence (enforced by the device).
    public var userPresenceRequired: Bool?
    /// Android-style: the key needs user authentication.
    public var userAuthenticationRequired: Bool?
    /// Seconds the key stays usable after one authentication (Android).
    public var timeout: Int?
    /// `BIOMETRIC`, `DEVICE_CREDENTIAL` or `BIOMETRIC_OR_DEVICE_CREDENTIAL` (Android).
    public var authorizationType: String?
    /// Assent only: the messages the credential will sign (absent: ``SignatureScheme/compatible``, as the official
    /// SDKs enrol). Assent's SDK sends ``SignatureScheme/bound``.
    public var signatureScheme: SignatureScheme?

    /// Creates a request.
    public init(
        publicKey: String, deviceName: String? = nil, devicePlatform: String? = nil, pushToken: String? = nil,
        userPresenceRequired: Bool? = nil, userAuthenticationRequired: Bool? = nil, timeout: Int? = nil,
        authorizationType: String? = nil, signatureScheme: SignatureScheme? = nil
    ) {
        self.publicKey = publicKey
        self.deviceName = deviceName
        self.devicePlatform = devicePlatform
        self.pushToken = pushToken
        self.userPresenceRequired = userPresenceRequired
        self.userAuthenticationRequired = userAuthenticationRequired
        self.timeout = timeout
        self.authorizationType = authorizationType
        self.signatureScheme = signatureScheme
    }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        publicKey = try body.requiredString("publicKey", maxLength: WireFieldLimit.publicKey)
        deviceName = try body.string("deviceName", maxLength: 255)
        devicePlatform = try body.string("devicePlatform", maxLength: 32)
        pushToken = try body.string("pushToken", maxLength: WireFieldLimit.pushToken)
        userPresenceRequired = try body.bool("userPresenceRequired")
        userAuthenticationRequired = try body.bool("userAuthenticationRequired")
        timeout = try body.integer("timeout", range: 0...86_400)
        authorizationType = try body.string("authorizationType", maxLength: 64)
        if let scheme = try body.string("signatureScheme", maxLength: 16) {
            guard let known = SignatureScheme(rawValue: scheme) else {
                throw WireDecodingError("signatureScheme must be \"bound\" or \"compatible\".")
            }
            signatureScheme = known
        }
    }
}

/// The answer to an enrolment.
public struct AddCredentialResponse: Codable, Sendable, Hashable {
    /// The new (or re-enrolled) authenticator.
    public var userAuthenticatorId: String
    /// The user it belongs to.
    public var userId: String
    /// When it was verified (ISO-8601).
    public var verifiedAt: String
    /// When it lapses unless kept alive (ISO-8601), push credentials only.
    public var expiresAt: String?

    /// Creates a response.
    public init(userAuthenticatorId: String, userId: String, verifiedAt: String, expiresAt: String? = nil) {
        self.userAuthenticatorId = userAuthenticatorId
        self.userId = userId
        self.verifiedAt = verifiedAt
        self.expiresAt = expiresAt
    }
}

/// `GET /v1/client/user-authenticators/{push|qr-code}?publicKey=`: the credential as the server knows it.
public struct CredentialResponse: Codable, Sendable, Hashable {
    /// The authenticator.
    public var userAuthenticatorId: String
    /// When it was verified (ISO-8601).
    public var verifiedAt: String
    /// The user.
    public var userId: String
    /// When it last verified something (ISO-8601).
    public var lastVerifiedAt: String?
    /// When it lapses unless kept alive (ISO-8601).
    public var expiresAt: String?

    /// Creates a response.
    public init(userAuthenticatorId: String, verifiedAt: String, userId: String, lastVerifiedAt: String?, expiresAt: String?) {
        self.userAuthenticatorId = userAuthenticatorId
        self.verifiedAt = verifiedAt
        self.userId = userId
        self.lastVerifiedAt = lastVerifiedAt
        self.expiresAt = expiresAt
    }
}

/// `POST .../remove`: signed with the time-window message (``SignedMessage/timeWindow(unixSeconds:)``), or by a
/// bound credential with ``SignedMessage/removal(credentialId:kind:unixSeconds:)``.
public struct RemoveCredentialRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The credential's public key (SPKI, base64).
    public var publicKey: String
    /// Base64 DER ECDSA signature over the time-window message (bound: the removal message).
    public var signature: String
    /// Creates a request.
    public init(publicKey: String, signature: String) {
        self.publicKey = publicKey
        self.signature = signature
    }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        publicKey = try body.requiredString("publicKey", maxLength: WireFieldLimit.publicKey)
        signature = try body.requiredString("signature", maxLength: WireFieldLimit.signature)
    }
}

/// The answer to a remove.
public struct RemoveCredentialResponse: Codable, Sendable, Hashable {
    /// The authenticator removed.
    public var removedAuthenticatorId: String?
    /// Creates a response.
    public init(removedAuthenticatorId: String?) { self.removedAuthenticatorId = removedAuthenticatorId }
}

/// `POST .../push/challenge/sign` and `POST .../push/sign`: a single-use server nonce to sign.
public struct SigningMessageResponse: Codable, Sendable, Hashable {
    /// Names the nonce (present on `.../push/sign`, redeemed by update credential).
    public var challengeId: String?
    /// The message to sign.
    public var message: String?
    /// Creates a response.
    public init(challengeId: String?, message: String?) {
        self.challengeId = challengeId
        self.message = message
    }
}

/// `PATCH /v1/client/user-authenticators/push`: a new push token and/or a renewed lease, proved by signing the
/// nonce from `.../push/sign`.
public struct UpdateCredentialRequest: Codable, Sendable, Hashable, WireDecodable {
    /// The nonce's id.
    public var challengeId: String
    /// The credential's public key.
    public var publicKey: String
    /// Signature over the nonce's message (bound: ``SignedMessage/update(credentialId:nonce:)``).
    public var signature: String
    /// The new push token, if it changed.
    public var pushToken: String?
    /// Renew the credential's lease.
    public var resetExpiry: Bool?
    /// Creates a request.
    public init(challengeId: String, publicKey: String, signature: String, pushToken: String? = nil, resetExpiry: Bool? = nil) {
        self.challengeId = challengeId
        self.publicKey = publicKey
        self.signature = signature
        self.pushToken = pushToken
        self.resetExpiry = resetExpiry
    }

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        publicKey = try body.requiredString("publicKey", maxLength: WireFieldLimit.publicKey)
        challengeId = try body.requiredString("challengeId", maxLength: WireFieldLimit.challengeId)
        signature = try body.requiredString("signature", maxLength: WireFieldLimit.signature)
        pushToken = try body.string("pushToken", maxLength: WireFieldLimit.pushToken)
        resetExpiry = try body.bool("resetExpiry")
    }
}

/// The answer to an update credential.
public struct UpdateCredentialResponse: Codable, Sendable, Hashable {
    /// The authenticator.
    public var userAuthenticatorId: String
    /// The user.
    public var userId: String
    /// When it was last verified (ISO-8601).
    public var lastVerifiedAt: String
    /// The push token now on record.
    public var pushToken: String?
    /// The new lease end (ISO-8601).
    public var expiresAt: String?
    /// Creates a response.
    public init(userAuthenticatorId: String, userId: String, lastVerifiedAt: String, pushToken: String?, expiresAt: String?) {
        self.userAuthenticatorId = userAuthenticatorId
        self.userId = userId
        self.lastVerifiedAt = lastVerifiedAt
        self.pushToken = pushToken
        self.expiresAt = expiresAt
    }
}
