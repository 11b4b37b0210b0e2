/// `PATCH /v1/users/{userId}`: only the fields present change; a field sent as null is cleared (`.some(nil)`).
public struct UpdateUserRequest: Encodable, Sendable, Hashable, WireDecodable {
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

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        email = try body.nullableString("email", maxLength: WireFieldLimit.email)
        emailVerified = try body.bool("emailVerified")
        phoneNumber = try body.nullableString("phoneNumber", maxLength: WireFieldLimit.phoneNumber)
        phoneNumberVerified = try body.bool("phoneNumberVerified")
        username = try body.nullableString("username", maxLength: WireFieldLimit.username)
        displayName = try body.nullableString("displayName", maxLength: 255)
        locale = try body.nullableString("locale", maxLength: WireFieldLimit.locale)
        custom = try body.nullableObject("custom")
    }
}
