import AssentCrypto
import AssentWire
package import AssentServerCore
import Foundation
import AssentSync

/// Sends notifications to Apple Push Notification service with **provider-token** authentication: an ES256 JWT
/// (`kid` = key id, `iss` = team id, `iat`) signed with the team's `.p8` key, reused for ``Options/tokenLifetime``
/// (Apple accepts a token for an hour and refuses refreshes more often than every 20 minutes) and renewed early when
/// APNs calls it expired. Requests go over one HTTP/2 connection per APNs host (see ``HTTP2Client``):
/// `POST /3/device/<token>` with `apns-topic`, `apns-push-type: alert`, `apns-expiration` (the challenge's expiry),
/// `apns-collapse-id` (the challenge id) and `apns-priority: 10`. The payload carries only the opaque challenge id and
/// a generic alert — never the action's context.
package final class APNsSender: PushSender {
    /// Where and how APNs is reached.
    package struct Options: Sendable {
        /// The production host.
        var productionURL = "https://api.push.apple.com"
        /// The sandbox (development) host.
        var sandboxURL = "https://api.sandbox.push.apple.com"
        /// Replaces both hosts (tests, proxies).
        package var overrideURL: String?
        /// Seconds for one request.
        var timeout: Double = 10
        /// How long one provider token is used, in milliseconds (50 minutes).
        var tokenLifetime: Int64 = 50 * 60 * 1000
        /// The alert shown on the device.
        var alertTitle = "Sign-in request"
        /// The alert's text.
        var alertBody = "Open the app to approve or deny it."

        /// The defaults.
        package init() {}
    }

    private struct CachedToken {
        var jwt: String
        var issuedAt: Int64
    }

    private let client: HTTP2Client
    private let sealer: PushCredentialSealer
    private let clock: WallClock
    private let options: Options
    private let keys = AssentLock<[String: P256.PrivateKey]>([:])
    private let tokens = AssentLock<[String: CachedToken]>([:])

    package init(client: HTTP2Client, sealer: PushCredentialSealer, clock: WallClock, options: Options) {
        self.client = client
        self.sealer = sealer
        self.clock = clock
        self.options = options
    }

    /// The provider token for `apns` of `tenant`: the cached one while younger than the lifetime, else a new one.
    /// Made under the cache's lock, so concurrent sends never mint two tokens at once (APNs refuses a team that
    /// changes tokens too often with `TooManyProviderTokenUpdates`).
    func providerToken(tenant: Tenant, apns: PushSettings.APNs) throws -> String {
        let cacheKey = "\(tenant.id)|\(apns.keyID)|\(apns.teamID)|\(apns.sealedKey.hashValue)"
        let now = clock.nowMilliseconds()
        return try tokens.withLock { cache in
            if let cached = cache[cacheKey], now - cached.issuedAt < options.tokenLifetime, now >= cached.issuedAt {
                return cached.jwt
            }
            let key: P256.PrivateKey
            if let known = keys.withLock({ $0[cacheKey] }) {
                key = known
            } else {
                key = try P256.PrivateKey(pkcs8PEM: try sealer.open(apns.sealedKey, tenantID: tenant.id, purpose: "apns"))
                keys.withLock { $0[cacheKey] = key }
            }
            let claims = #"{"iss":"# + PushJSON.quoted(apns.teamID) + #","iat":\#(now / 1000)}"#
            let jwt = try JWT.sign(payload: Array(claims.utf8), using: .es256(key), keyID: apns.keyID)
            cache[cacheKey] = CachedToken(jwt: jwt, issuedAt: now)
            return jwt
        }
    }

    private func forgetToken(tenant: Tenant) {
        tokens.withLock { cache in cache = cache.filter { !$0.key.hasPrefix(tenant.id + "|") } }
    }

    package func send(_ delivery: PushDelivery, tenant: Tenant) async -> PushOutcome {
        guard let apns = tenant.settings.push?.apns else {
            return .failed(status: nil, reason: "provider_not_configured")
        }
        guard let token = delivery.pushToken, !token.isEmpty,
              token.utf8.allSatisfy({ $0 < 128 && $0 != UInt8(ascii: "/") && $0 > 32 })
        else { return .staleToken(code: PushOutcome.invalidToken, status: 0, reason: "malformed push token") }
        let jwt: String
        do {
            jwt = try providerToken(tenant: tenant, apns: apns)
        } catch {
            return .failed(status: nil, reason: "apns_key_unusable")
        }
        let base = options.overrideURL ?? (apns.environment == "sandbox" ? options.sandboxURL : options.productionURL)
        var request = HTTP2Client.Request(url: base + "/3/device/" + token)
        request.timeout = options.timeout
        request.headers = [
            ("authorization", "bearer " + jwt),
            ("apns-topic", apns.topic),
            ("apns-push-type", "alert"),
            ("apns-expiration", String(delivery.expiresAt / 1000)),
            ("apns-collapse-id", String(delivery.challengeID.prefix(64))),
            ("apns-priority", "10"),
            ("content-type", "application/json"),
        ]
        request.body = Array(payload(challengeID: delivery.challengeID).utf8)
        do {
            let response = try await client.send(request)
            let outcome = APNsResponse.outcome(
                status: response.status, body: response.body, retryAfter: response.headers["retry-after"].flatMap(Double.init))
            if case .retry(_, _, _, true) = outcome { forgetToken(tenant: tenant) }
            return outcome
        } catch let error as HTTP2Client.TransportError {
            return .retry(status: nil, reason: error.code)
        } catch {
            return .retry(status: nil, reason: "transport_failed")
        }
    }

    /// `{"aps":{"alert":{...},"sound":"default"},"challengeId":"..."}` — an opaque id and generic text only.
    func payload(challengeID: String) -> String {
        #"{"aps":{"alert":{"title":"# + PushJSON.quoted(options.alertTitle) + #","body":"#
            + PushJSON.quoted(options.alertBody) + #"},"sound":"default"},"challengeId":"# + PushJSON.quoted(challengeID)
            + "}"
    }
}
