/// What an answer writes into the history in its own transaction: the row and the `sign_in.completed` webhook events
/// that report it (none when the tenant has no webhook URL).
package struct SignInRecording: Sendable, Hashable {
    /// The row. Its outcome, time and credential are the answer's.
    package var signIn: SignIn
    /// The events, queued in the outbox with it.
    package var events: [WebhookEvent]

    /// `signIn` with `events`.
    package init(_ signIn: SignIn, events: [WebhookEvent]) {
        self.signIn = signIn
        self.events = events
    }
}
