/// An event waiting in (or delivered from) the webhook outbox. It is written in the same transaction as the change
/// it reports, so an acknowledged change always has its event, even across a crash. (The synchronous `push.created`
/// is one too, but is posted at once and never queued: ``PushWebhookSender``.)
package struct WebhookEvent: Sendable, Hashable {
    /// Identifier, also the envelope's `id`.
    package var id: String
    /// The tenant.
    package var tenantID: String
    /// `authenticator.created`, `authenticator.updated`, `authenticator.deleted`, ...
    package var type: String
    /// The JSON envelope, exactly as it will be sent and signed.
    package var body: String
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// When to try next, milliseconds since the epoch.
    package var nextAttemptAt: Int64
    /// Attempts so far.
    package var attempts: Int

    /// Creates a fresh event, due at once.
    package init(id: String, tenantID: String, type: String, body: String, createdAt: Int64) {
        self.id = id
        self.tenantID = tenantID
        self.type = type
        self.body = body
        self.createdAt = createdAt
        self.nextAttemptAt = createdAt
        self.attempts = 0
    }
}
