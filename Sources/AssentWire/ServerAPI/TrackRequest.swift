/// `POST /v1/users/{userId}/actions/{action}`: track an action for a user (every field optional).
public struct TrackRequest: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
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

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>("Track an action for a user (every field optional).", blank: { Self() }, [
        .string("idempotencyKey", \.idempotencyKey, maxLength: 200, allowEmpty: false, "Reuse this key instead of generating one."),
        .string("redirectUrl", \.redirectUrl, maxLength: 2048, "Where a web flow returns to."),
        .bool("redirectToSettings", \.redirectToSettings, "Accepted for compatibility."),
        .string("ipAddress", \.ipAddress, maxLength: 64, "The initiating request's IP address."),
        .string("userAgent", \.userAgent, maxLength: 1024, characters: .text, "The initiating request's user agent."),
        .string("deviceId", \.deviceId, maxLength: 256, "The initiating device."),
        .string("location", \.location, maxLength: 256,
                "Where the initiating request came from, shown to a device claiming a QR challenge."),
        .string("scope", \.scope, maxLength: 512, "Scopes for the token, e.g. add:authenticators."),
        .string("email", \.email, maxLength: WireFieldLimit.email, "Updates the user's e-mail address."),
        .string("phoneNumber", \.phoneNumber, maxLength: WireFieldLimit.phoneNumber, "Updates the user's phone number."),
        .string("username", \.username, maxLength: WireFieldLimit.username, "Updates the user name."),
        .string("locale", \.locale, maxLength: WireFieldLimit.locale, "Updates the user's locale."),
        .object("custom", \.custom, "Free-form data kept with the action."),
        .string("customDomain", \.customDomain, maxLength: 255, "Accepted for compatibility and ignored."),
        .string("challengeId", \.challengeId, maxLength: WireFieldLimit.challengeId, "Accepted for compatibility and ignored."),
    ])
}
