package import AssentWire

/// A user of a tenant, as far as Assent knows one: the backend's identifier plus optional contact details.
package struct User: Sendable, Hashable {
    /// The tenant.
    package var tenantID: String
    /// The backend's identifier for the user.
    package var userID: String
    /// Contact and display details; nil fields are unknown.
    package var email: String?
    /// Whether the backend vouched for the e-mail address.
    package var emailVerified: Bool = false
    /// Phone number.
    package var phoneNumber: String?
    /// Whether the backend vouched for the phone number.
    package var phoneNumberVerified: Bool = false
    /// User name.
    package var username: String?
    /// Display name.
    package var displayName: String?
    /// Locale.
    package var locale: String?
    /// Free-form data from the backend.
    package var custom: [String: JSONValue]?
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// Milliseconds since the epoch.
    package var updatedAt: Int64

    /// Creates a user with nothing known but its identifier.
    package init(tenantID: String, userID: String, now: Int64) {
        self.tenantID = tenantID
        self.userID = userID
        self.createdAt = now
        self.updatedAt = now
    }
}
