/// `PATCH /v1/users/{userId}`: only the fields present change; a field sent as null is cleared (`.some(nil)`).
public struct UpdateUserRequest: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
    /// New e-mail address.
    public var email: String??
    /// Whether the backend vouches for the e-mail address.
    public var emailVerified: Bool?
    /// New phone number.
    public var phoneNumber: String??
    /// Whether the backend vouches for the phone number.
    public var phoneNumberVerified: Bool?
    /// New user name.
    public var username: String??
    /// New display name.
    public var displayName: String??
    /// New locale.
    public var locale: String??
    /// New custom data (replaces the old).
    public var custom: [String: JSONValue]??

    /// A request that changes nothing.
    public init() {}

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "Only the fields present change; a field sent as null is cleared.", blank: { Self() }, [
            .nullableString("email", \.email, maxLength: WireFieldLimit.email, "New e-mail address."),
            .bool("emailVerified", \.emailVerified, "Whether the backend vouches for the e-mail address."),
            .nullableString("phoneNumber", \.phoneNumber, maxLength: WireFieldLimit.phoneNumber, "New phone number."),
            .bool("phoneNumberVerified", \.phoneNumberVerified, "Whether the backend vouches for the phone number."),
            .nullableString("username", \.username, maxLength: WireFieldLimit.username, "New user name."),
            .nullableString("displayName", \.displayName, maxLength: 255, "New display name."),
            .nullableString("locale", \.locale, maxLength: WireFieldLimit.locale, "New locale."),
            .nullableObject("custom", \.custom, "New custom data (replaces the old)."),
        ])
}
