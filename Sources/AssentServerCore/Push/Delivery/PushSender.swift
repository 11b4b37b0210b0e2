/// A provider that sends one notification: APNs or FCM. Implementations never throw: every failure is a
/// ``PushOutcome``, so the worker records it the same way.
package protocol PushSender: Sendable {
    /// Sends the notification for `delivery` (its `pushToken` filled by the claim) on behalf of `tenant`.
    func send(_ delivery: PushDelivery, tenant: Tenant) async -> PushOutcome
}
