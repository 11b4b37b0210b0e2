/// `GET` and `PATCH /v1/users/{userId}`: what Assent knows about a user.
public struct UserResponse: Codable, Sendable, Hashable, WireSchema {
    /// The response header of `GET /v1/users/{userId}` that says whether the tenant knows the user at all (`true` or
    /// `false`), beside a body that answers an unknown user as not enrolled, as Authsignal's does.
    public static let knownHeader = "Assent-User-Known"

    /// The user.
    public var userId: String
    /// Whether the user has at least one authenticator. An unknown user is simply not enrolled.
    public var isEnrolled: Bool
    /// E-mail address, if the backend set one.
    public var email: String?
    /// Whether the backend vouched for the e-mail address.
    public var emailVerified: Bool
    /// Phone number, if the backend set one.
    public var phoneNumber: String?
    /// Whether the backend vouched for the phone number.
    public var phoneNumberVerified: Bool
    /// User name.
    public var username: String?
    /// Display name.
    public var displayName: String?
    /// Locale such as `en-NZ`.
    public var locale: String?
    /// Free-form data the backend attached.
    public var custom: [String: JSONValue]?
    /// Methods the user has enrolled.
    public var enrolledVerificationMethods: [VerificationMethod]
    /// Methods the user may enrol or use.
    public var allowedVerificationMethods: [VerificationMethod]

    /// Creates a user response.
    public init(
        userId: String, isEnrolled: Bool, email: String? = nil, emailVerified: Bool = false,
        phoneNumber: String? = nil, phoneNumberVerified: Bool = false, username: String? = nil,
        displayName: String? = nil, locale: String? = nil, custom: [String: JSONValue]? = nil,
        enrolledVerificationMethods: [VerificationMethod] = [], allowedVerificationMethods: [VerificationMethod] = []
    ) {
        self.userId = userId
        self.isEnrolled = isEnrolled
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.phoneNumberVerified = phoneNumberVerified
        self.username = username
        self.displayName = displayName
        self.locale = locale
        self.custom = custom
        self.enrolledVerificationMethods = enrolledVerificationMethods
        self.allowedVerificationMethods = allowedVerificationMethods
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>(
        "What Assent knows about a user. An unknown user is simply not enrolled.", [
            .field("userId", \.userId, "The user."),
            .field("isEnrolled", \.isEnrolled, "Whether the user has at least one authenticator."),
            .optional("email", \.email, "E-mail address, if the backend set one."),
            .field("emailVerified", \.emailVerified, "Whether the backend vouched for the e-mail address."),
            .optional("phoneNumber", \.phoneNumber, "Phone number, if the backend set one."),
            .field("phoneNumberVerified", \.phoneNumberVerified, "Whether the backend vouched for the phone number."),
            .optional("username", \.username, "User name."),
            .optional("displayName", \.displayName, "Display name."),
            .optional("locale", \.locale, "Locale such as en-NZ."),
            .optional("custom", \.custom, "Free-form data the backend attached."),
            .field("enrolledVerificationMethods", \.enrolledVerificationMethods, "Methods the user has enrolled."),
            .field("allowedVerificationMethods", \.allowedVerificationMethods, "Methods the user may enrol or use."),
        ])
}
