/// What starting a push challenge arranged for one targeted authenticator (``PushDeliveryPlan``): no `errorCode`
/// means its notification was queued (APNs/FCM) or sent (the tenant's webhook); an `errorCode` says why this device
/// gets none (`no_push_provider`, `push_token_missing`, `provider_not_configured`, a stale token's code, or
/// `webhook_failed` when a best-effort webhook refused) — it can still pull the challenge.
package struct PushDeliveryOutcome: Sendable, Hashable {
    /// The targeted authenticator.
    package var authenticatorID: String
    /// Why it gets no notification, when it does not.
    package var errorCode: String?

    /// The outcome for `authenticatorID`.
    package init(authenticatorID: String, errorCode: String? = nil) {
        self.authenticatorID = authenticatorID
        self.errorCode = errorCode
    }
}
