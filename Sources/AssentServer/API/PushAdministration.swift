import AssentHTTP
import AssentServerCore
import AssentWire
import Foundation

/// The tenant's own push settings and delivery records over the server API (secret-key Basic auth):
/// `GET`/`PATCH /v1/tenant/push` and `GET /v1/challenges/{challengeId}/timeline` (any challenge's, not only a push's).
/// Credentials go in, never out: answers say only whether they are configured, with their public parts.
struct PushAdministration: Sendable {
    let tenants: TenantDirectory
    let history: ChallengeHistory
    let clock: WallClock
    let editor: PushSettingsEditor

    /// `GET /v1/tenant/push`.
    func settings(_ tenant: Tenant) -> HTTPResponse {
        APIResponses.ok(PushSettingsEditor.view(tenant.settings))
    }

    /// `PATCH /v1/tenant/push` (``UpdatePushSettingsRequest``). All checked before anything changes.
    func update(_ request: UpdatePushSettingsRequest, _ tenant: Tenant) async throws -> HTTPResponse {
        var change = PushSettingsEditor.Change()
        if let name = request.provider {
            guard let provider = PushSettings.Provider(rawValue: name) else {
                let names = PushSettings.Provider.allCases.map(\.rawValue)
                throw AssentError(.invalidRequest, WireDecodingError.notOneOf("provider", names).reason)
            }
            change.provider = provider
        }
        change.webhookURL = request.webhookUrl
        change.webhookBestEffort = request.webhookBestEffort
        change.apnsKeyPEM = request.apnsPrivateKey
        change.apnsKeyID = request.apnsKeyId
        change.apnsTeamID = request.apnsTeamId
        change.apnsTopic = request.apnsTopic
        change.apnsEnvironment = request.apnsEnvironment
        change.removeAPNs = request.removeApns ?? false
        change.removeFCM = request.removeFcm ?? false
        switch request.fcmServiceAccount {
        case .string(let text): change.fcmServiceAccountJSON = text
        case .object(let object):
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            change.fcmServiceAccountJSON = String(decoding: try encoder.encode(object), as: UTF8.self)
        default: break
        }
        try await editor.checkDestinations(of: change)
        let updated = try await tenants.updateSettings(tenantID: tenant.id, actor: ServerAPI.actor) { settings in
            try editor.apply(change, to: &settings, tenantID: tenant.id)
        }
        return APIResponses.ok(PushSettingsEditor.view(updated.settings))
    }

    /// `GET /v1/challenges/{challengeId}/timeline`: the challenge's deliveries and its timeline — the console's, from
    /// ``ChallengeTimeline``: the start and the answer from the challenge, and every event the store recorded. A
    /// challenge of any kind has one, whatever the push provider; `404` only when the tenant has neither the challenge
    /// nor a record of it.
    func timeline(_ tenant: Tenant, challengeID: String) async throws -> HTTPResponse {
        let read = try await history.read(tenantID: tenant.id, challengeID: challengeID)
        let (challenge, recorded, queued) = (read.challenge, read.recorded, read.deliveries)
        guard !read.isEmpty else {
            throw AssentError(
                .notFound, "This tenant has no such challenge (challenges and their timelines are kept a day).")
        }
        let entries = ChallengeTimeline.entries(challenge: challenge, recorded: recorded, now: clock.nowMilliseconds())
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
