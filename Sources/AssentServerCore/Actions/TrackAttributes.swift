package import AssentWire

/// What the backend may send when tracking an action (all optional).
package struct TrackAttributes: Sendable, Hashable {
    /// Reuse this key instead of generating one.
    package var idempotencyKey: String?
    /// Where a web flow returns to.
    package var redirectURL: String?
    /// Accepted for compatibility; Assent has no hosted settings page.
    package var redirectToSettings: Bool?
    /// The initiating request's IP address.
    package var ipAddress: String?
    /// The initiating request's user agent.
    package var userAgent: String?
    /// The initiating device.
    package var deviceID: String?
    /// Where the initiating request came from, in words the user recognises (the backend's own geolocation).
    package var location: String?
    /// Scopes for the token, e.g. `add:authenticators`.
    package var scope: String?
    /// Updates the user's e-mail address.
    package var email: String?
    /// Updates the user's phone number.
    package var phoneNumber: String?
    /// Updates the user name.
    package var username: String?
    /// Free-form data kept with the action.
    package var custom: [String: JSONValue]?
    /// Updates the user's locale.
    package var locale: String?

    /// No attributes.
    package init() {}
}
