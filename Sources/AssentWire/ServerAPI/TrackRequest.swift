/// `POST /v1/users/{userId}/actions/{action}`: track an action for a user (every field optional).
public struct TrackRequest: Encodable, Sendable, Hashable, WireDecodable {
    /// Reuse this key instead of generating one.
    public var idempotencyKey: String?
    /// Where a web flow returns to.
    public var redirectUrl: String?
    /// Accepted for compatibility; Assent has no hosted settings page.
    public var redirectToSettings: Bool?
    /// The initiating request's IP address.
    public var ipAddress: String?
    /// The initiating request's user agent.
    public var userAgent: String?
    /// The initiating device.
    public var deviceId: String?
    /// Where the initiating request came from, as the backend describes it; shown to a device claiming a QR
    /// challenge for this action.
    public var location: String?
    /// Scopes for the token, e.g. `add:authenticators`.
    public var scope: String?
    /// Updates the user's e-mail address.
    public var email: String?
    /// Updates the user's phone number.
    public var phoneNumber: String?
    /// Updates the user name.
    public var username: String?
    /// Updates the user's locale.
    public var locale: String?
    /// Free-form data kept with the action.
    public var custom: [String: JSONValue]?
    /// Accepted for compatibility and ignored.
    public var customDomain: String?
    /// Accepted for compatibility and ignored.
    public var challengeId: String?

    /// A request without attributes.
    public init() {}

    /// Reads the request with the server's limits.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        idempotencyKey = try body.string("idempotencyKey", maxLength: 200, allowEmpty: false)
        redirectUrl = try body.string("redirectUrl", maxLength: 2048)
        redirectToSettings = try body.bool("redirectToSettings")
        ipAddress = try body.string("ipAddress", maxLength: 64)
        userAgent = try body.string("userAgent", maxLength: 1024, characters: .text)
        deviceId = try body.string("deviceId", maxLength: 256)
        location = try body.string("location", maxLength: 256)
        scope = try body.string("scope", maxLength: 512)
        email = try body.string("email", maxLength: WireFieldLimit.email)
        phoneNumber = try body.string("phoneNumber", maxLength: WireFieldLimit.phoneNumber)
        username = try body.string("username", maxLength: WireFieldLimit.username)
        locale = try body.string("locale", maxLength: WireFieldLimit.locale)
        custom = try body.object("custom")
        customDomain = try body.string("customDomain", maxLength: 255)
        challengeId = try body.string("challengeId", maxLength: WireFieldLimit.challengeId)
    }
}
