/// `POST /v1/client/user-authenticators/{push|qr-code}` (Bearer track token): enrol a device key.
public struct AddCredentialRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
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
    /// Assent only: a device attestation of the key (``AttestationStatement``), which the tenant's policy may ask for.
    public var attestation: AttestationStatement?

    /// Creates a request.
    public init(
        publicKey: String, deviceName: String? = nil, devicePlatform: String? = nil, pushToken: String? = nil,
        userPresenceRequired: Bool? = nil, userAuthenticationRequired: Bool? = nil, timeout: Int? = nil,
        authorizationType: String? = nil, signatureScheme: SignatureScheme? = nil, attestation: AttestationStatement? = nil
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
        self.attestation = attestation
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>("Enrol a device key.", blank: { Self(publicKey: "") }, [
        .requiredString("publicKey", \.publicKey, maxLength: WireFieldLimit.publicKey,
                        "Base64 of the key's X.509 SubjectPublicKeyInfo DER."),
        .string("deviceName", \.deviceName, maxLength: 255, "The device's name for itself."),
        .string("devicePlatform", \.devicePlatform, maxLength: 32, "ios or android."),
        .string("pushToken", \.pushToken, maxLength: WireFieldLimit.pushToken,
                "APNs device token or FCM registration token (push credentials)."),
        .bool("userPresenceRequired", \.userPresenceRequired, "iOS-style: every use of the key needs user presence."),
        .bool("userAuthenticationRequired", \.userAuthenticationRequired, "Android-style: the key needs user authentication."),
        .integer("timeout", \.timeout, range: 0...86_400, "Seconds the key stays usable after one authentication."),
        .string("authorizationType", \.authorizationType, maxLength: 64,
                "BIOMETRIC, DEVICE_CREDENTIAL or BIOMETRIC_OR_DEVICE_CREDENTIAL (Android)."),
        .value("signatureScheme", \.signatureScheme, maxLength: 16, refusal: "signatureScheme must be \"bound\" or \"compatible\".",
               "The messages the credential will sign (absent: compatible)."),
        .nested("attestation", \.attestation, maxBytes: 64 * 1024,
                "A device attestation of the key (apple-appattest or android-key), bound to a challenge."),
    ])
}

/// The answer to an enrolment.
public struct AddCredentialResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The new (or re-enrolled) authenticator.", [
        .field("userAuthenticatorId", \.userAuthenticatorId, "The new (or re-enrolled) authenticator."),
        .field("userId", \.userId, "The user it belongs to."),
        .field("verifiedAt", \.verifiedAt, Timestamp.wireDescription),
        .optional("expiresAt", \.expiresAt, Timestamp.wireDescription),
    ])
}

/// `GET /v1/client/user-authenticators/{push|qr-code}?publicKey=`: the credential as the server knows it.
public struct CredentialResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The credential as the server knows it.", [
        .field("userAuthenticatorId", \.userAuthenticatorId, "The authenticator."),
        .field("verifiedAt", \.verifiedAt, Timestamp.wireDescription),
        .field("userId", \.userId, "The user."),
        .optional("lastVerifiedAt", \.lastVerifiedAt, Timestamp.wireDescription),
        .optional("expiresAt", \.expiresAt, Timestamp.wireDescription),
    ])
}

/// `POST .../remove`: signed with the time-window message (``SignedMessage/timeWindow(unixSeconds:)``), or by a
/// bound credential with ``SignedMessage/removal(credentialId:kind:unixSeconds:)``.
public struct RemoveCredentialRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The credential's public key (SPKI, base64).
    public var publicKey: String
    /// Base64 DER ECDSA signature over the time-window message (bound: the removal message).
    public var signature: String
    /// Creates a request.
    public init(publicKey: String, signature: String) {
        self.publicKey = publicKey
        self.signature = signature
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "Signed with the time-window message, or by a bound credential with the removal message.",
        blank: { Self(publicKey: "", signature: "") }, [
            .requiredString("publicKey", \.publicKey, maxLength: WireFieldLimit.publicKey, "The credential's public key (SPKI, base64)."),
            .requiredString("signature", \.signature, maxLength: WireFieldLimit.signature, "Base64 DER ECDSA signature."),
        ])
}

/// The answer to a remove.
public struct RemoveCredentialResponse: Codable, Sendable, Hashable, WireSchema {
    /// The authenticator removed.
    public var removedAuthenticatorId: String?
    /// Creates a response.
    public init(removedAuthenticatorId: String?) { self.removedAuthenticatorId = removedAuthenticatorId }

    /// The field and its description.
    package static let wireFields = WireFields<Self>("The authenticator removed.", [
        .optional("removedAuthenticatorId", \.removedAuthenticatorId, "The authenticator removed."),
    ])
}

/// `POST .../push/challenge/sign` and `POST .../push/sign`: a single-use server nonce to sign.
public struct SigningMessageResponse: Codable, Sendable, Hashable, WireSchema {
    /// Names the nonce (present on `.../push/sign`, redeemed by update credential).
    public var challengeId: String?
    /// The message to sign.
    public var message: String?
    /// Creates a response.
    public init(challengeId: String?, message: String?) {
        self.challengeId = challengeId
        self.message = message
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("A single-use server nonce to sign.", name: "SigningMessage", [
        .optional("challengeId", \.challengeId, "Names the nonce (.../push/sign)."),
        .optional("message", \.message, "The message to sign."),
    ])
}

/// `PATCH /v1/client/user-authenticators/push`: a new push token and/or a renewed lease, proved by signing the
/// nonce from `.../push/sign`.
public struct UpdateCredentialRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
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

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "A new push token and/or a renewed lease, proved by signing the nonce from .../push/sign.",
        blank: { Self(challengeId: "", publicKey: "", signature: "") }, [
            .requiredString("publicKey", \.publicKey, maxLength: WireFieldLimit.publicKey, "The credential's public key."),
            .requiredString("challengeId", \.challengeId, maxLength: WireFieldLimit.challengeId, "The nonce's id."),
            .requiredString("signature", \.signature, maxLength: WireFieldLimit.signature, "Signature over the nonce's message."),
            .string("pushToken", \.pushToken, maxLength: WireFieldLimit.pushToken, "The new push token, if it changed."),
            .bool("resetExpiry", \.resetExpiry, "Renew the credential's lease."),
        ])
}

/// The answer to an update credential.
public struct UpdateCredentialResponse: Codable, Sendable, Hashable, WireSchema {
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

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The credential after the update.", [
        .field("userAuthenticatorId", \.userAuthenticatorId, "The authenticator."),
        .field("userId", \.userId, "The user."),
        .field("lastVerifiedAt", \.lastVerifiedAt, Timestamp.wireDescription),
        .optional("pushToken", \.pushToken, "The push token now on record."),
        .optional("expiresAt", \.expiresAt, Timestamp.wireDescription),
    ])
}
