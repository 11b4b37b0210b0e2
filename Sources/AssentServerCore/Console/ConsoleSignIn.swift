/// A console sign-in, accepted or refused, as the audit log records it. Never holds the key, token or session id.
package struct ConsoleSignIn: Sendable, Hashable {
    /// The tenant signed in to; nil when the credential matched none.
    package var tenantID: String?
    /// `secret-key`, `admin-token:<id>`, or nil when refused.
    package var principal: String?
    /// Whether a session was made.
    package var accepted: Bool
    /// The client address (behind any trusted proxy).
    package var remoteAddress: String
    /// When, milliseconds since the epoch.
    package var at: Int64

    /// Creates an event.
    package init(tenantID: String?, principal: String?, accepted: Bool, remoteAddress: String, at: Int64) {
        self.tenantID = tenantID
        self.principal = principal
        self.accepted = accepted
        self.remoteAddress = remoteAddress
        self.at = at
    }
}
