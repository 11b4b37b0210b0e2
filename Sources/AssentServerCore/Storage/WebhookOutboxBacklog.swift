/// Webhook events neither delivered nor given up, as ``MetricsStore/webhookOutboxBacklog()`` counts them.
package struct WebhookOutboxBacklog: Sendable, Hashable {
    /// How many events wait.
    package var depth: Int
    /// When the oldest waiting event was queued (milliseconds since the Unix epoch); nil when none waits.
    package var oldestCreatedAt: Int64?

    /// A backlog of `depth` events, the oldest queued at `oldestCreatedAt`.
    package init(depth: Int, oldestCreatedAt: Int64?) {
        self.depth = depth
        self.oldestCreatedAt = oldestCreatedAt
    }
}
