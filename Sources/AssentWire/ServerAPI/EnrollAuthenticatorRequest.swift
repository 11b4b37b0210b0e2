/// `POST /v1/users/{userId}/authenticators`: the backend enrols a method it verified itself (e-mail, SMS, ...).
public struct EnrollAuthenticatorRequest: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The method, e.g. `EMAIL_OTP`.
    public var verificationMethod: VerificationMethod
    /// The e-mail address, for e-mail methods.
    public var email: String?
    /// The phone number, for SMS and WhatsApp.
    public var phoneNumber: String?
    /// Make it the user's default authenticator.
    public var isDefault: Bool?

    /// Creates a request.
    public init(verificationMethod: VerificationMethod) { self.verificationMethod = verificationMethod }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "The backend enrols a method it verified itself (e-mail, SMS, ...).",
        blank: { Self(verificationMethod: .push) }, [
            .requiredValue("verificationMethod", \.verificationMethod, maxLength: 64, "The method, e.g. EMAIL_OTP."),
            .string("email", \.email, maxLength: WireFieldLimit.email, "The e-mail address, for e-mail methods."),
            .string("phoneNumber", \.phoneNumber, maxLength: WireFieldLimit.phoneNumber, "The phone number, for SMS and WhatsApp."),
            .bool("isDefault", \.isDefault, "Make it the user's default authenticator."),
        ])
}
