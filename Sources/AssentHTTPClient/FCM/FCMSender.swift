import AssentCrypto
import AssentWire
package import AssentLog
package import AssentServerCore
import Foundation
import AssentSync

/// Sends notifications through Firebase Cloud Messaging HTTP v1. Authentication follows Google's service-account
/// flow: an RS256 JWT assertion (`iss` = client e-mail, `scope` = firebase.messaging, `aud` = the token URI, one
/// hour) is exchanged at the account's `token_uri` for an OAuth2 access token, which is cached until five minutes
/// before it expires. Messages are data messages — `{"challengeId": ...}`, Android priority high, TTL = what is
/// left of the challenge — POSTed to `/v1/projects/<project>/messages:send` over one connection per host. For an iOS
/// device (an app using FCM on iOS) an `apns` block adds a generic alert with the APNs headers the APNs provider sends.
/// The `token_uri` is the tenant's (it comes in the service-account file), so the token request goes through the
/// client for tenant URLs, which reaches only public addresses, and what went wrong on the way is logged while the
/// tenant's timeline shows only `delivery_failed`.
package final class FCMSender: PushSender {
    /// Where FCM is reached.
    package struct Options: Sendable {
        /// FCM's base URL.
        package var baseURL = "https://fcm.googleapis.com"
        /// Seconds for one request.
        var timeout: Double = 10
        /// The OAuth scope asked for.
        var scope = "https://www.googleapis.com/auth/firebase.messaging"
        /// The alert iOS devices reached through FCM show (Android apps get a data message and show their own).
        var alertTitle = "Sign-in request"
        /// The alert's text.
        var alertBody = "Open the app to approve or deny it."

        /// The defaults.
        package init() {}
    }

    private struct CachedToken {
        var accessToken: String
        var expiresAt: Int64
    }

    private let client: HTTP2Client
    private let tokenClient: HTTP2Client
    private let logger: Logger
    private let sealer: PushCredentialSealer
    private let clock: WallClock
    private let options: Options
    private let accounts = AssentLock<[String: ServiceAccount]>([:])
    private let tokens = AssentLock<[String: CachedToken]>([:])
    /// Token requests in flight, so concurrent sends share one instead of each asking.
    private let fetches = AssentLock<[String: Task<Result<String, PushOutcomeBox>, Never>]>([:])

    /// Sends messages through `client` (FCM is the operator's) and asks for OAuth tokens through `tokenClient` (the
    /// tenant's `token_uri`: a client restricted to public addresses).
    package init(
        client: HTTP2Client, tokenClient: HTTP2Client, sealer: PushCredentialSealer, clock: WallClock, logger: Logger,
        options: Options
    ) {
        self.client = client
        self.tokenClient = tokenClient
        self.logger = logger
        self.sealer = sealer
        self.clock = clock
        self.options = options
    }

    private func cacheKey(_ tenant: Tenant, _ fcm: PushSettings.FCM) -> String {
        "\(tenant.id)|\(fcm.clientEmail)|\(fcm.sealedServiceAccount.hashValue)"
    }

    private func account(tenant: Tenant, fcm: PushSettings.FCM) throws -> ServiceAccount {
        let key = cacheKey(tenant, fcm)
        if let known = accounts.withLock({ $0[key] }) { return known }
        let account = try ServiceAccount(json: try sealer.open(fcm.sealedServiceAccount, tenantID: tenant.id, purpose: "fcm"))
        accounts.withLock { $0[key] = account }
        return account
    }

    /// The signed assertion for `account` at `now` (seconds).
    func assertion(account: ServiceAccount, now: Int64) throws -> String {
        let claims = #"{"iss":"# + PushJSON.quoted(account.clientEmail) + #","scope":"# + PushJSON.quoted(options.scope)
            + #","aud":"# + PushJSON.quoted(account.tokenURI) + #","iat":\#(now),"exp":\#(now + 3600)}"#
        return try JWT.sign(payload: Array(claims.utf8), using: .rs256(account.privateKey), keyID: account.privateKeyID)
    }

    /// A cached access token, or a new one from the token URI (one request at a time per service account).
    private func accessToken(tenant: Tenant, fcm: PushSettings.FCM) async -> Result<String, PushOutcomeBox> {
        let key = cacheKey(tenant, fcm)
        if let cached = tokens.withLock({ $0[key] }), cached.expiresAt > clock.nowMilliseconds() {
            return .success(cached.accessToken)
        }
        let task = fetches.withLock { fetches in
            if let running = fetches[key] { return running }
            let task = Task { await self.fetchAccessToken(tenant: tenant, fcm: fcm, key: key) }
            fetches[key] = task
            return task
        }
        let result = await task.value
        fetches.withLock { fetches in _ = fetches.removeValue(forKey: key) }
        return result
    }

    private func fetchAccessToken(tenant: Tenant, fcm: PushSettings.FCM, key: String) async -> Result<String, PushOutcomeBox> {
        let now = clock.nowMilliseconds()
        if let cached = tokens.withLock({ $0[key] }), cached.expiresAt > now { return .success(cached.accessToken) }
        let account: ServiceAccount
        let jwt: String
        do {
            account = try self.account(tenant: tenant, fcm: fcm)
            jwt = try assertion(account: account, now: now / 1000)
        } catch {
            return .failure(PushOutcomeBox(.failed(status: nil, reason: "fcm_service_account_unusable")))
        }
        var request = HTTP2Client.Request(url: account.tokenURI)
        request.timeout = options.timeout
        request.headers = [("content-type", "application/x-www-form-urlencoded")]
        request.body = Array(
            ("grant_type=" + PushJSON.formEncoded("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion=" + jwt).utf8)
        do {
            let response = try await tokenClient.send(request)
            guard response.status == 200, let object = PushJSON.object(response.body),
                  let token = object["access_token"] as? String, !token.isEmpty
            else {
                let outcome: PushOutcome = response.status == 429 || response.status >= 500
                    ? .retry(status: response.status, reason: "oauth_token_unavailable")
                    : .failed(status: response.status, reason: "oauth_token_refused")
                return .failure(PushOutcomeBox(outcome))
            }
            let lifetime = Int64((object["expires_in"] as? NSNumber)?.intValue ?? 3600)
            // Renewed five minutes before it lapses (or at half its life when it is short).
            let margin = min(300, lifetime / 2)
            tokens.withLock { $0[key] = CachedToken(accessToken: token, expiresAt: now + (lifetime - margin) * 1000) }
            return .success(token)
        } catch {
            // The detail (a refused address, a connection refused or timed out) would tell the tenant what listens
            // where; it goes to the log, the timeline says only `delivery_failed`.
            let detail = (error as? HTTP2Client.TransportError)?.description ?? "transport_failed"
            logger.log(
                .warning, "fcm token request failed",
                ["tenantId": .string(tenant.id), "tokenHost": .string(OutboundURLPolicy.loggableHost(of: account.tokenURI)),
                 "error": .string(detail)])
            return .failure(PushOutcomeBox(.retry(status: nil, reason: OutboundURLPolicy.deliveryFailed)))
        }
    }

    package func send(_ delivery: PushDelivery, tenant: Tenant) async -> PushOutcome {
        guard let fcm = tenant.settings.push?.fcm else { return .failed(status: nil, reason: "provider_not_configured") }
        guard let token = delivery.pushToken, !token.isEmpty else {
            return .staleToken(code: PushOutcome.invalidToken, status: 0, reason: "missing push token")
        }
        let accessToken: String
        switch await self.accessToken(tenant: tenant, fcm: fcm) {
        case .success(let value): accessToken = value
        case .failure(let box): return box.outcome
        }
        let ttl = max(1, (delivery.expiresAt - clock.nowMilliseconds()) / 1000)
        var apns = ""
        if delivery.devicePlatform?.uppercased() == "IOS" {
            apns = #","apns":{"headers":{"apns-priority":"10","apns-push-type":"alert","apns-expiration":"\#(delivery.expiresAt / 1000)","apns-collapse-id":"#
                + PushJSON.quoted(String(delivery.challengeID.prefix(64))) + #"},"payload":{"aps":{"alert":{"title":"#
                + PushJSON.quoted(options.alertTitle) + #","body":"# + PushJSON.quoted(options.alertBody)
                + #"},"sound":"default"}}}"#
        }
        let body = #"{"message":{"token":"# + PushJSON.quoted(token) + #","data":{"challengeId":"#
            + PushJSON.quoted(delivery.challengeID) + #"},"android":{"priority":"high","ttl":"\#(ttl)s"}"# + apns + "}}"
        var request = HTTP2Client.Request(
            url: options.baseURL + "/v1/projects/" + (PushJSON.formEncoded(fcm.projectID)) + "/messages:send")
        request.timeout = options.timeout
        request.headers = [("authorization", "Bearer " + accessToken), ("content-type", "application/json")]
        request.body = Array(body.utf8)
        do {
            let response = try await client.send(request)
            let outcome = FCMResponse.outcome(
                status: response.status, body: response.body, retryAfter: response.headers["retry-after"].flatMap(Double.init))
            if case .retry(_, _, _, true) = outcome {
                let key = cacheKey(tenant, fcm)
                tokens.withLock { _ = $0.removeValue(forKey: key) }
            }
            return outcome
        } catch let error as HTTP2Client.TransportError {
            return .retry(status: nil, reason: error.code)
        } catch {
            return .retry(status: nil, reason: "transport_failed")
        }
    }
}
