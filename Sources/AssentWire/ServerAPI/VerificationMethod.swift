/// How a user proved an action or what an authenticator can do, in the server API's spelling.
public struct VerificationMethod: RawRepresentable, Codable, Sendable, Hashable {
    /// The wire spelling, e.g. `PUSH`.
    public var rawValue: String
    /// Wraps a wire spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A push credential approving from a notification or a pull.
    public static let push = VerificationMethod(rawValue: "PUSH")
    /// A device credential (QR code and in-app verification).
    public static let device = VerificationMethod(rawValue: "DEVICE")
    /// An e-mail address verified by the tenant's own backend.
    public static let emailOTP = VerificationMethod(rawValue: "EMAIL_OTP")
    /// A phone number verified by the tenant's own backend.
    public static let sms = VerificationMethod(rawValue: "SMS")

    /// Every method the server API accepts in `enroll_verified_authenticator`-style records.
    public static let all: [VerificationMethod] = [
        "SMS", "EMAIL_OTP", "EMAIL_MAGIC_LINK", "AUTHENTICATOR_APP", "PASSKEY", "SECURITY_KEY", "PUSH", "VERIFF",
        "IPROOV", "IDVERSE", "PALM_BIOMETRICS_RR", "RECOVERY_CODE", "DEVICE", "WHATSAPP",
    ].map(VerificationMethod.init(rawValue:))

    /// Decodes the wire spelling.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the wire spelling.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension VerificationMethod: WireEnumeration, WireNamed {
    /// Any spelling is kept as sent (the server checks it against ``all`` where that matters).
    package static var wireSpellings: [String]? { nil }

    package static var wireType: WireType { .named(Self.self) }

    package static var wireComponent: JSONValue {
        guard case .object(var schema) = WireType.string().jsonSchema(
            description: "How a user proved an action or what an authenticator can do, e.g. PUSH, DEVICE, EMAIL_OTP, SMS.")
        else { return .null }
        schema["examples"] = .array([push, device, emailOTP, sms].map { .string($0.rawValue) })
        return .object(schema)
    }
}
