import Foundation

/// What starting a push challenge arranges for each targeted authenticator, decided from the tenant's push settings
/// before anything is stored: a queued APNs/FCM delivery, a skip with a reason, or — for the `webhook` provider — one
/// synchronous `push.created` call for the whole challenge.
///
/// `results` (``PushDeliveryOutcome``) answer what is known when the start answers: no `errorCode` means queued
/// (APNs/FCM, sent moments later off the request path) or sent (webhook); an `errorCode` means this device gets no
/// notification — `no_push_provider` (the tenant's provider is `none`: devices only pull), `push_token_missing`,
/// `provider_not_configured`, or the stale-token code the authenticator already carries (`push_token_unregistered`,
/// `push_token_invalid`) — and can still pull the challenge. So a page never says "we sent a request" when nothing
/// was sent.
struct PushDeliveryPlan {
    /// Deliveries to queue with the challenge.
    var deliveries: [PushDelivery] = []
    /// Timeline entries to store with the challenge.
    var timeline: [ChallengeTimelineEntry] = []
    /// One result per target.
    var results: [PushDeliveryOutcome] = []
    /// Where to send `push.created`, for the webhook provider.
    var webhookURL: String?

    init(tenant: Tenant, challenge: Challenge, targets: [Authenticator], now: Int64) {
        let push = tenant.settings.push ?? PushSettings()
        if push.provider == .webhook {
            webhookURL = push.webhookURL ?? tenant.settings.webhookURL
        }
        for target in targets {
            guard let provider = push.provider(forPlatform: target.devicePlatform) else {
                let pullOnly = push.provider == .none ? "no_push_provider" : nil
                results.append(PushDeliveryOutcome(authenticatorID: target.id, errorCode: pullOnly))
                continue
            }
            var skip: String?
            if provider == .apns, push.apns == nil || target.pushToken == nil {
                skip = push.apns == nil ? "provider_not_configured" : "push_token_missing"
            } else if provider == .fcm, push.fcm == nil || target.pushToken == nil {
                skip = push.fcm == nil ? "provider_not_configured" : "push_token_missing"
            } else if let stale = target.errorCode, target.erroredAt != nil {
                skip = stale
            }
            var entry = ChallengeTimelineEntry(
                event: "push.queued", tenantID: tenant.id, challengeID: challenge.id, at: now,
                authenticatorID: target.id, provider: provider.rawValue)
            if let skip {
                entry.event = "push.skipped"
                entry.detail = skip
                results.append(PushDeliveryOutcome(authenticatorID: target.id, errorCode: skip))
            } else {
                deliveries.append(
                    PushDelivery(
                        id: UUID().uuidString.lowercased(), tenantID: tenant.id, challengeID: challenge.id,
                        authenticatorID: target.id, provider: provider, createdAt: now, expiresAt: challenge.expiresAt))
                results.append(PushDeliveryOutcome(authenticatorID: target.id))
            }
            timeline.append(entry)
        }
    }
}
