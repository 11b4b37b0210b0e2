/// Which of a tenant's sign-ins to read (``SignInHistoryStore/signIns(_:)``): newest first, filtered by user,
/// outcome, method, action and time, a page after a cursor.
package struct SignInQuery: Sendable, Hashable {
    /// The tenant.
    package var tenantID: String
    /// Only this user's, when given.
    package var userID: String?
    /// Only this outcome, when given.
    package var outcome: SignIn.Outcome?
    /// Only this method (`push`, `qr`), when given.
    package var method: String?
    /// Only this action code, when given.
    package var actionCode: String?
    /// Only at or after this time (milliseconds), when given.
    package var from: Int64?
    /// Only before this time (milliseconds), when given.
    package var to: Int64?
    /// Only rows after this one in the history's order (the previous page's last), when given.
    package var after: SignInCursor?
    /// At most this many.
    package var limit: Int

    /// A query over `tenantID`'s history.
    package init(tenantID: String, limit: Int = 100) {
        self.tenantID = tenantID
        self.limit = limit
    }
}
