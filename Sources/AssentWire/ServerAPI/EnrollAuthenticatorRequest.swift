/// `POST /v1/users/{userId}/authenticators`: the backend enrols a method it verified itself (e-mail, SMS, ...).
public struct EnrollAuthenticatorRequest: Encodable, Sendable, Hashable, WireDecodable {
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

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        verificationMethod = VerificationMethod(rawValue: try body.requiredString("verificationMethod", maxLength: 64))
        email = try body.string("email", maxLength: WireFieldLimit.email)
        phoneNumber = try body.string("phoneNumber", maxLength: WireFieldLimit.phoneNumber)
        isDefault = try body.bool("isDefault")
    }
}
