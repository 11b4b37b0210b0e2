import AssentWire
import Foundation

/// Builds webhook events with the envelope of the wire reference §6:
/// `{version: 1, id, source, time, tenantId, type, data}`. A tenant without a webhook URL gets no events.
package struct WebhookEvents: Sendable {
    private let clock: WallClock
    private let source: PublicURL

    package init(clock: WallClock, source: PublicURL) {
        self.clock = clock
        self.source = source
    }

    /// The event types Assent sends.
    package enum EventType: String, Sendable {
        /// A device credential was enrolled.
        case authenticatorCreated = "authenticator.created"
        /// A credential changed (push token, lease).
        case authenticatorUpdated = "authenticator.updated"
        /// A credential was removed (by the device, the backend, or with its user).
        case authenticatorDeleted = "authenticator.deleted"
    }

    private struct Envelope: Encodable {
        var version = 1
        var id: String
        var source: String
        var time: String
        var tenantId: String
        var type: String
        var data: [String: JSONValue]
    }

    /// The synchronous `push.created` event of the wire reference §6 for a push challenge:
    /// `{challengeId, userId, idempotencyKey, actionCode, userAgent?, ipAddress?}`, sent at once rather than queued in
    /// the outbox.
    func pushCreated(_ challenge: Challenge, tenant: Tenant) -> WebhookEvent {
        let now = clock.nowMilliseconds()
        var data: [String: JSONValue] = ["challengeId": .string(challenge.id)]
        if let user = challenge.userID { data["userId"] = .string(user) }
        if let key = challenge.idempotencyKey { data["idempotencyKey"] = .string(key) }
        if let code = challenge.actionCode { data["actionCode"] = .string(code) }
        if let agent = challenge.userAgent { data["userAgent"] = .string(agent) }
        if let ip = challenge.ipAddress { data["ipAddress"] = .string(ip) }
        let id = UUID().uuidString.lowercased()
        return WebhookEvent(
            id: id, tenantID: tenant.id, type: "push.created",
            body: envelope(id: id, type: "push.created", data: data, tenant: tenant, now: now) ?? "{}", createdAt: now)
    }

    /// `push.fraud_reported` for a push challenge a device answered "this wasn't me":
    /// `{challengeId, userId, userAuthenticatorId, idempotencyKey?, actionCode?, lockedUntil}`; none when the tenant has
    /// no webhook URL.
    func pushFraudReported(
        _ challenge: Challenge, authenticatorID: String, lockedUntil: Int64, tenant: Tenant
    ) -> [WebhookEvent] {
        guard tenant.settings.webhookURL != nil else { return [] }
        let now = clock.nowMilliseconds()
        var data: [String: JSONValue] = [
            "challengeId": .string(challenge.id), "userAuthenticatorId": .string(authenticatorID),
            "lockedUntil": .string(Timestamp.iso8601(milliseconds: lockedUntil)),
        ]
        if let user = challenge.userID { data["userId"] = .string(user) }
        if let key = challenge.idempotencyKey { data["idempotencyKey"] = .string(key) }
        if let code = challenge.actionCode { data["actionCode"] = .string(code) }
        return event("push.fraud_reported", data: data, tenant: tenant, now: now)
    }

    /// `sign_in.completed` for one outcome of the authentication history (``SignIn``), for a SIEM:
    /// `{outcome, reason?, userId, method, factor?, actionCode?, userAuthenticatorId?, challengeId?, ipAddress?,
    /// userAgent?, verificationMs?, at}`; none when the tenant has no webhook URL.
    package func signInCompleted(_ signIn: SignIn, tenant: Tenant) -> [WebhookEvent] {
        guard tenant.settings.webhookURL != nil else { return [] }
        var data: [String: JSONValue] = [
            "outcome": .string(signIn.outcome.rawValue), "userId": .string(signIn.userID),
            "method": .string(signIn.method), "at": .string(Timestamp.iso8601(milliseconds: signIn.at)),
        ]
        if let reason = signIn.reason { data["reason"] = .string(reason) }
        if let factor = signIn.factor { data["factor"] = .string(factor) }
        if let code = signIn.actionCode { data["actionCode"] = .string(code) }
        if let credential = signIn.credentialID { data["userAuthenticatorId"] = .string(credential) }
        if let challenge = signIn.challengeID { data["challengeId"] = .string(challenge) }
        if let ip = signIn.ipAddress { data["ipAddress"] = .string(ip) }
        if let agent = signIn.userAgent { data["userAgent"] = .string(agent) }
        if let took = signIn.verificationMilliseconds { data["verificationMs"] = .number(Double(took)) }
        return event("sign_in.completed", data: data, tenant: tenant, now: clock.nowMilliseconds())
    }

    /// One outbox event of `type` with `data`, or none when it cannot be encoded.
    private func event(_ type: String, data: [String: JSONValue], tenant: Tenant, now: Int64) -> [WebhookEvent] {
        let id = UUID().uuidString.lowercased()
        guard let body = envelope(id: id, type: type, data: data, tenant: tenant, now: now) else { return [] }
        return [WebhookEvent(id: id, tenantID: tenant.id, type: type, body: body, createdAt: now)]
    }

    /// The signed envelope's text.
    private func envelope(id: String, type: String, data: [String: JSONValue], tenant: Tenant, now: Int64) -> String? {
        let envelope = Envelope(
            id: id, source: source.current, time: Timestamp.iso8601(milliseconds: now), tenantId: tenant.id,
            type: type, data: data)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(envelope)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The event for `authenticator`, or none when the tenant has no webhook URL.
    func authenticator(_ type: EventType, _ authenticator: Authenticator, tenant: Tenant) -> [WebhookEvent] {
        guard tenant.settings.webhookURL != nil else { return [] }
        let now = clock.nowMilliseconds()
        var data: [String: JSONValue] = [
            "userId": .string(authenticator.userID),
            "userAuthenticatorId": .string(authenticator.id),
            "verificationMethod": .string(authenticator.verificationMethod.rawValue),
        ]
        switch type {
        case .authenticatorCreated:
            data["createdAt"] = .string(Timestamp.iso8601(milliseconds: authenticator.createdAt))
            // The device attestation's verdict, as the authenticator reads show it; omitted when none was recorded.
            if let attestation = authenticator.attestation?.wireJSON { data["attestation"] = attestation }
        case .authenticatorUpdated: data["updatedAt"] = .string(Timestamp.iso8601(milliseconds: now))
        case .authenticatorDeleted: data["deletedAt"] = .string(Timestamp.iso8601(milliseconds: now))
        }
        if let email = authenticator.email { data["email"] = .string(email) }
        if let phone = authenticator.phoneNumber { data["phoneNumber"] = .string(phone) }
        if let platform = authenticator.devicePlatform { data["devicePlatform"] = .string(platform) }
        if let expiresAt = authenticator.expiresAt { data["expiresAt"] = .string(Timestamp.iso8601(milliseconds: expiresAt)) }
        return event(type.rawValue, data: data, tenant: tenant, now: now)
    }
}
