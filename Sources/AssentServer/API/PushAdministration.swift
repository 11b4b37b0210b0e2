import AssentHTTP
import AssentServerCore
import AssentWire
import Foundation

/// The tenant's own push settings and delivery records over the server API (secret-key Basic auth):
/// `GET`/`PATCH /v1/tenant/push` and `GET /v1/challenges/{challengeId}/timeline`. Credentials go in, never out:
/// answers say only whether they are configured, with their public parts.
struct PushAdministration: Sendable {
    let tenants: TenantDirectory
    let deliveries: any PushDeliveryStore
    let configuration: PushConfiguration

    /// `GET /v1/tenant/push`.
    func settings(_ tenant: Tenant) -> HTTPResponse {
        APIResponses.ok(PushConfiguration.view(tenant.settings))
    }

    /// `PATCH /v1/tenant/push`: `provider`, `webhookUrl` (null: the tenant's webhook URL), `webhookBestEffort`,
    /// `apnsPrivateKey` (the .p8 PEM), `apnsKeyId`, `apnsTeamId`, `apnsTopic`, `apnsEnvironment`, `removeApns`,
    /// `fcmServiceAccount` (the JSON file, as an object or a string), `removeFcm`. All checked before anything changes.
    func update(_ request: HTTPRequest, _ tenant: Tenant) async throws -> HTTPResponse {
        let body = try JSONBody(request)
        var change = PushConfiguration.Change()
        if let name = try body.string("provider", maxLength: 32) {
            guard let provider = PushSettings.Provider(rawValue: name) else {
                throw AssentError(
                    .invalidRequest,
                    "provider must be one of " + PushSettings.Provider.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            change.provider = provider
        }
        change.webhookURL = try body.nullableString("webhookUrl", maxLength: 2048)
        change.webhookBestEffort = try body.bool("webhookBestEffort")
        change.apnsKeyPEM = try body.string("apnsPrivateKey", maxLength: 8192)
        change.apnsKeyID = try body.string("apnsKeyId", maxLength: 255)
        change.apnsTeamID = try body.string("apnsTeamId", maxLength: 255)
        change.apnsTopic = try body.string("apnsTopic", maxLength: 255)
        change.apnsEnvironment = try body.string("apnsEnvironment", maxLength: 32)
        change.removeAPNs = try body.bool("removeApns") ?? false
        change.removeFCM = try body.bool("removeFcm") ?? false
        if body.has("fcmServiceAccount") {
            if let text = try? body.string("fcmServiceAccount", maxLength: 16 * 1024) {
                change.fcmServiceAccountJSON = text
            } else if let object = try body.object("fcmServiceAccount") {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .withoutEscapingSlashes
                change.fcmServiceAccountJSON = String(decoding: try encoder.encode(object), as: UTF8.self)
            }
        }
        let updated = try await tenants.updateSettings(tenantID: tenant.id) { settings in
            try configuration.apply(change, to: &settings, tenantID: tenant.id)
        }
        return APIResponses.ok(PushConfiguration.view(updated.settings))
    }

    /// `GET /v1/challenges/{challengeId}/timeline`: the challenge's deliveries and every recorded event.
    func timeline(_ tenant: Tenant, challengeID: String) async throws -> HTTPResponse {
        let entries = try await deliveries.challengeTimeline(tenantID: tenant.id, challengeID: challengeID)
        let queued = try await deliveries.pushDeliveries(tenantID: tenant.id, challengeID: challengeID)
        guard !entries.isEmpty || !queued.isEmpty else {
            throw AssentError(.notFound, "No delivery records for this challenge.")
        }
        return APIResponses.ok(
            ChallengeTimelineResponse(
                challengeId: challengeID,
                deliveries: queued.map {
                    ChallengeTimelineResponse.Delivery(
                        userAuthenticatorId: $0.authenticatorID, provider: $0.provider.rawValue, state: $0.state.rawValue,
                        attempts: $0.attempts, lastError: $0.lastError)
                },
                timeline: entries.map {
                    ChallengeTimelineResponse.Event(
                        event: $0.event, at: Timestamp.iso8601(milliseconds: $0.at), userAuthenticatorId: $0.authenticatorID,
                        provider: $0.provider, attempt: $0.attempt, status: $0.status, detail: $0.detail)
                }))
    }
}
