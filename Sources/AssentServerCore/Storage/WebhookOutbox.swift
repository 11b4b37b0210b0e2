/// Webhook events waiting to be delivered. They are queued in the transaction of the change they report (e.g.
/// ``CredentialStore/enrollDeviceCredential(_:enrolmentKey:reenrol:events:)``), so none is lost or sent for a change
/// that did not happen. Every method is one atomic, durable unit (see ``ServerStore``).
package protocol WebhookOutbox: Sendable {
    /// Events due at `now`, oldest first, claimed for the caller: a store shared by several instances leases them
    /// (no other instance gets them until the lease runs out or the outcome is recorded), so each is delivered by
    /// one instance.
    func dueWebhookEvents(now: Int64, limit: Int) async throws -> [WebhookEvent]
    /// Marks an event delivered.
    func markWebhookDelivered(id: String, at: Int64) async throws
    /// Records a failed attempt: retry at `nextAttemptAt`, or give up when it is nil.
    func markWebhookAttemptFailed(id: String, attempts: Int, nextAttemptAt: Int64?, error: String, at: Int64) async throws
}
