/// What tracking an action changes on its user's record: the contact details the request named (nil: unchanged) and
/// the time. A store applies it to the record it holds — ``applied(to:tenantID:userID:)``, or the same rule in SQL —
/// so the change is made against the newest record, however many tracks for the user race.
package struct UserChanges: Sendable, Hashable {
    /// A new e-mail address; a different one than stored is no longer verified.
    package var email: String?
    /// A new phone number; a different one than stored is no longer verified.
    package var phoneNumber: String?
    /// A new user name.
    package var username: String?
    /// A new locale.
    package var locale: String?
    /// When (milliseconds since the epoch): the record's `updatedAt`, and `createdAt` of a new one.
    package var now: Int64

    /// The changes, made at `now`.
    package init(email: String?, phoneNumber: String?, username: String?, locale: String?, now: Int64) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.username = username
        self.locale = locale
        self.now = now
    }

    /// `existing` (a new record for `userID` when nil) with the changes made.
    package func applied(to existing: User?, tenantID: String, userID: String) -> User {
        var user = existing ?? User(tenantID: tenantID, userID: userID, now: now)
        if let email, email != user.email {
            user.email = email
            user.emailVerified = false
        }
        if let phoneNumber, phoneNumber != user.phoneNumber {
            user.phoneNumber = phoneNumber
            user.phoneNumberVerified = false
        }
        if let username { user.username = username }
        if let locale { user.locale = locale }
        user.updatedAt = now
        return user
    }
}
