package import AssentWire

/// The backend's edit of a user's profile (`PATCH /v1/users/{userId}`, ``UserService/update(tenant:userID:edit:)``):
/// a field that is nil stays as it is, `.some(nil)` clears it. Unlike a track's ``UserChanges``, a new e-mail address
/// or phone number keeps the verified flag the backend sends (or the stored one).
package struct UserEdit: Sendable, Hashable {
    /// A new e-mail address.
    package var email: String??
    /// Whether the backend vouches for the e-mail address.
    package var emailVerified: Bool?
    /// A new phone number.
    package var phoneNumber: String??
    /// Whether the backend vouches for the phone number.
    package var phoneNumberVerified: Bool?
    /// A new user name.
    package var username: String??
    /// A new display name.
    package var displayName: String??
    /// A new locale.
    package var locale: String??
    /// New custom data (replaces the old).
    package var custom: [String: JSONValue]??

    /// An edit that changes nothing.
    package init() {}

    /// `user` with the edit made.
    func apply(to user: inout User) {
        if let email { user.email = email }
        if let emailVerified { user.emailVerified = emailVerified }
        if let phoneNumber { user.phoneNumber = phoneNumber }
        if let phoneNumberVerified { user.phoneNumberVerified = phoneNumberVerified }
        if let username { user.username = username }
        if let displayName { user.displayName = displayName }
        if let locale { user.locale = locale }
        if let custom { user.custom = custom }
    }
}
