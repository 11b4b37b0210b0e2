import AssentWire

/// What the backend may send when tracking an action (all optional).
public struct TrackAttributes: Sendable, Hashable {
    /// Reuse this key instead of generating one.
    public var idempotencyKey: String?
    /// Where a web flow returns to.
    public var redirectURL: String?
    /// Accepted for compatibility; Assent has no hosted settings page.
    public var redirectToSettings: Bool?
    /// The initiating request's IP address.
    public var ipAddress: String?
    /// The initiating request's user agent.
    public var userAgent: String?
    /// The initiating device.
    public var deviceID: String?
    /// Where the initiating request came from, in words the user recognises (the backend's own geolocation).
    public var location: String?
    /// Scopes for the token, e.g. `add:authenticators`.
    public var scope: String?
    /// Updates the user's e-mail address.
    public var email: String?
    /// Updates the user's phone number.
    public var phoneNumber: String?
    /// Updates the user name.
    public var username: String?
    /// Free-form data kept with the action.
    public var custom: [String: JSONValue]?
    /// Updates the user's locale.
    public var locale: String?

    /// No attributes.
    public init() {}
}
