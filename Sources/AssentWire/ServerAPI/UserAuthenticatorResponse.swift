/// One authenticator of a user, as `GET /v1/users/{userId}/authenticators` lists it.
public struct UserAuthenticatorResponse: Codable, Sendable, Hashable, WireSchema {
    /// The user.
    public var userId: String
    /// The authenticator's identifier.
    public var userAuthenticatorId: String
    /// What kind of authenticator it is.
    public var verificationMethod: VerificationMethod
    /// When it was created (ISO-8601).
    public var createdAt: String
    /// When it was first verified (ISO-8601).
    public var verifiedAt: String?
    /// When it last verified an action (ISO-8601).
    public var lastVerifiedAt: String?
    /// E-mail address of an `EMAIL_OTP` authenticator.
    public var email: String?
    /// Phone number of an `SMS` authenticator.
    public var phoneNumber: String?
    /// `IOS`, `ANDROID` or `WEB` for device credentials.
    public var devicePlatform: String?
    /// The device's own name for itself.
    public var deviceName: String?
    /// Whether this is the user's default authenticator.
    public var isDefault: Bool
    /// When push delivery to it last failed (ISO-8601).
    public var erroredAt: String?
    /// Why push delivery to it last failed.
    public var errorCode: String?
    /// When the credential lapses unless kept alive (ISO-8601).
    public var expiresAt: String?
    /// Assent only: the verdict of the device attestation the credential was enrolled with (absent when none).
    public var attestation: AuthenticatorAttestation?

    /// Creates an authenticator response.
    public init(
        userId: String, userAuthenticatorId: String, verificationMethod: VerificationMethod, createdAt: String,
        verifiedAt: String? = nil, lastVerifiedAt: String? = nil, email: String? = nil, phoneNumber: String? = nil,
        devicePlatform: String? = nil, deviceName: String? = nil, isDefault: Bool = false, erroredAt: String? = nil,
        errorCode: String? = nil, expiresAt: String? = nil, attestation: AuthenticatorAttestation? = nil
    ) {
        self.userId = userId
        self.userAuthenticatorId = userAuthenticatorId
        self.verificationMethod = verificationMethod
        self.createdAt = createdAt
        self.verifiedAt = verifiedAt
        self.lastVerifiedAt = lastVerifiedAt
        self.email = email
        self.phoneNumber = phoneNumber
        self.devicePlatform = devicePlatform
        self.deviceName = deviceName
        self.isDefault = isDefault
        self.erroredAt = erroredAt
        self.errorCode = errorCode
        self.expiresAt = expiresAt
        self.attestation = attestation
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("One authenticator of a user.", name: "UserAuthenticator", [
        .field("userId", \.userId, "The user."),
        .field("userAuthenticatorId", \.userAuthenticatorId, "The authenticator's identifier."),
        .field("verificationMethod", \.verificationMethod, "What kind of authenticator it is."),
        .field("createdAt", \.createdAt, Timestamp.wireDescription),
        .optional("verifiedAt", \.verifiedAt, Timestamp.wireDescription),
        .optional("lastVerifiedAt", \.lastVerifiedAt, Timestamp.wireDescription),
        .optional("email", \.email, "E-mail address of an EMAIL_OTP authenticator."),
        .optional("phoneNumber", \.phoneNumber, "Phone number of an SMS authenticator."),
        .optional("devicePlatform", \.devicePlatform, "IOS, ANDROID or WEB for device credentials."),
        .optional("deviceName", \.deviceName, "The device's own name for itself."),
        .field("isDefault", \.isDefault, "Whether this is the user's default authenticator."),
        .optional("erroredAt", \.erroredAt, Timestamp.wireDescription),
        .optional("errorCode", \.errorCode, "Why push delivery to it last failed."),
        .optional("expiresAt", \.expiresAt, Timestamp.wireDescription),
        .optional("attestation", \.attestation, "The device attestation's verdict, when the credential has one."),
    ])
}

/// `POST /v1/users/{userId}/authenticators`: the enrolled authenticator.
public struct EnrollAuthenticatorResponse: Codable, Sendable, Hashable, WireSchema {
    /// The authenticator just enrolled.
    public var authenticator: UserAuthenticatorResponse
    /// Creates the response.
    public init(authenticator: UserAuthenticatorResponse) { self.authenticator = authenticator }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The enrolled authenticator.", [
        .field("authenticator", \.authenticator, "The authenticator just enrolled."),
    ])
}
