import AssentWire

/// A user of a tenant, as far as Assent knows one: the backend's identifier plus optional contact details.
public struct User: Sendable, Hashable {
    /// The tenant.
    public var tenantID: String
    /// The backend's identifier for the user.
    public var userID: String
    /// Contact and display details; nil fields are unknown.
    public var email: String?
    /// Whether the backend vouched for the e-mail address.
    public var emailVerified: Bool = false
    /// Phone number.
    public var phoneNumber: String?
    /// Whether the backend vouched for the phone number.
    public var phoneNumberVerified: Bool = false
    /// User name.
    public var username: String?
    /// Display name.
    public var displayName: String?
    /// Locale.
    public var locale: String?
    /// Free-form data from the backend.
    public var custom: [String: JSONValue]?
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// Milliseconds since the epoch.
    public var updatedAt: Int64

    /// Creates a user with nothing known but its identifier.
    public init(tenantID: String, userID: String, now: Int64) {
        self.tenantID = tenantID
        self.userID = userID
        self.createdAt = now
        self.updatedAt = now
    }
}
