import AssentCrypto
package import AssentWire
import Foundation

/// Push challenges: started by the initiating page with a track token, pulled by the user's devices, answered once
/// with a signature, and watched by the page until it gets an access token for the backend.
///
/// Starting one also arranges its notifications (see ``PushDeliveryPlan``): APNs and FCM sends are queued in the
/// same transaction as the challenge and sent by the ``PushDeliveryWorker`` off the request path, so they never
/// slow down or fail the start; only the tenant's own `webhook` provider is called synchronously.
package struct PushChallengeService: Sendable {
    let store: any ActionStore & CredentialStore & ChallengeStore & UserStore
    let clock: WallClock
    let tokens: TokenIssuer
    let defaultTokenLifetime: Int64
    /// The delivery queue and timeline.
    let deliveries: any PushDeliveryStore
    /// The synchronous `push.created` sender.
    let webhook: PushWebhookSender
    /// Tells the delivery worker something was queued.
    let wake: @Sendable () -> Void
    /// Refuses starts for a user being push-bombed or who reported a push as not theirs.
    let guards: PushGuards
    /// Counts challenges started.
    let metrics: DomainMetrics?

    /// A started challenge with what was arranged for each targeted authenticator.
    package struct Started: Sendable {
        /// The new challenge.
        package var challenge: Challenge
        /// One outcome per targeted authenticator.
        package var deliveries: [PushDeliveryOutcome]
    }

    /// What a push credential finds when it asks for its challenge (``pending(tenant:key:signed:)``).
    package struct Pending: Sendable {
        /// The credential asking.
        package var authenticatorID: String
        /// The newest challenge it may answer, or nil when none is pending.
        package var challenge: Challenge?
        /// The challenge's custom data the tenant marked public (only when the request was signed).
        package var publicCustom: [String: JSONValue]?
        /// The user's custom data the tenant marked public (only when the request was signed).
        package var publicUserCustom: [String: JSONValue]?
    }

    /// Opens a push challenge for the token's action, for all the user's live push credentials or one of them, and
    /// returns it with one delivery outcome per targeted authenticator (no `errorCode`: queued or sent).
    package func start(
        tenant: Tenant, claims: TokenClaims, action: String?, targetID: String?
    ) async throws -> Started {
        if let action, action != claims.act {
            throw AssentError(.invalidRequest, "action must be the tracked action (\(claims.act)).")
        }
        let now = clock.nowMilliseconds()
        // The action, the user's push guard and authenticators, read together.
        let reads = try await store.pushStartReads(
            tenantID: tenant.id, idempotencyKey: claims.idk, userID: claims.sub, now: now)
        guard let tracked = reads.action, tracked.userID == claims.sub
        else { throw AssentError(.invalidToken, "The token's action no longer exists.") }
        // Only an action waiting for a challenge gets one: not one the backend blocked or allowed, nor one that a
        // device already approved or denied ("this wasn't me" ends the action's pushes).
        guard tracked.state == .challengeRequired else {
            throw AssentError(.conflict, "The action is not waiting for a challenge (it is \(tracked.state.rawValue)).")
        }
        try await guards.admitStart(tenant: tenant, userID: claims.sub, read: reads.pushGuard, now: now)
        var targets = reads.authenticators.filter {
            $0.verificationMethod == .push && !$0.isExpired(at: now)
        }
        if let targetID {
            targets = targets.filter { $0.id == targetID }
            guard !targets.isEmpty else {
                throw AssentError(.notFound, "The user has no live push credential \(targetID).")
            }
        }
        guard !targets.isEmpty else {
            throw AssentError(.notFound, "The user has no live push credential.")
        }
        let timeout = Int64(min(max(tenant.settings.challengeTimeoutSeconds, 10), 600))
        var challenge = Challenge(
            id: Challenge.newID(), tenantID: tenant.id, kind: .push, createdAt: now, expiresAt: now + timeout * 1000)
        challenge.userID = claims.sub
        challenge.actionCode = claims.act
        challenge.idempotencyKey = claims.idk
        challenge.targetAuthenticatorID = targetID
        challenge.ipAddress = tracked.ipAddress
        challenge.userAgent = tracked.userAgent
        challenge.deviceID = tracked.deviceID
        challenge.custom = tracked.custom
        if tenant.settings.numberMatching {
            challenge.verificationCode = Self.code()
        }
        let plan = PushDeliveryPlan(tenant: tenant, challenge: challenge, targets: targets, now: now)
        guard try await deliveries.insertPushChallenge(
            challenge, maxOpenForUser: tenant.settings.maxPendingPushChallenges, deliveries: plan.deliveries,
            timeline: plan.timeline)
        else {
            throw AssentError(.tooManyRequests, "Too many push challenges are waiting for this user; let them expire or be answered.")
        }
        metrics?.challenge(.push, .started, tenantID: challenge.tenantID)
        if !plan.deliveries.isEmpty { wake() }
        guard let url = plan.webhookURL else { return Started(challenge: challenge, deliveries: plan.results) }
        let sent = await webhook.send(challenge, tenant: tenant, url: url)
        let at = clock.nowMilliseconds()
        let entry = ChallengeTimelineEntry(
            event: sent.failure == nil ? "webhook.delivered" : "webhook.failed", tenantID: tenant.id,
            challengeID: challenge.id, at: at, provider: "webhook", attempt: 1, status: sent.status, detail: sent.failure)
        guard let failure = sent.failure else {
            try await deliveries.appendTimeline([entry])
            return Started(challenge: challenge, deliveries: plan.results)
        }
        if tenant.settings.push?.webhookBestEffort == true {
            try await deliveries.appendTimeline([entry])
            return Started(
                challenge: challenge,
                deliveries: plan.results.map { PushDeliveryOutcome(authenticatorID: $0.authenticatorID, errorCode: "webhook_failed") })
        }
        try await deliveries.abandonChallenge(tenantID: tenant.id, id: challenge.id, at: at, entry: entry)
        throw AssentError(.pushDeliveryFailed, "The tenant's push webhook did not accept push.created (\(failure)); the challenge was not started.")
    }

    /// A uniformly random 3-digit code.
    static func code() -> String {
        var value: UInt16
        repeat {
            let bytes = SecureRandom.bytes(2)
            value = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        } while value >= 65000
        return String(value % 1000).leftPadded(to: 3)
    }

    /// The newest challenge the push credential of `key` may answer, read with the credential itself (one round trip
    /// on PostgreSQL); `invalid_credential` when the key names no live push credential. When `signed` says the
    /// request was signed by the device over the current get-challenge message
    /// (``DeviceCredentialService/verifiesChallengeFetch(tenant:authenticator:key:signature:)``), the tenant's public
    /// custom data comes along.
    package func pending(
        tenant: Tenant, key: DeviceKey, signed: (Authenticator) -> Bool
    ) async throws -> Pending {
        let now = clock.nowMilliseconds()
        let read = try await store.pushCredentialAndPendingChallenge(tenantID: tenant.id, publicKey: key.der, now: now)
        let authenticator = try DeviceCredentialService.live(read.authenticator, at: now)
        var pending = Pending(authenticatorID: authenticator.id, challenge: read.challenge)
        guard let challenge = read.challenge, signed(authenticator) else { return pending }
        pending.publicCustom = tenant.settings.publicCustom(challenge.custom)
        let user = try await store.user(tenantID: tenant.id, userID: authenticator.userID)
        pending.publicUserCustom = tenant.settings.publicUserCustom(user?.custom)
        return pending
    }

    /// The challenge's state for the page that started it; an approved challenge comes with an access token.
    package func verify(tenant: Tenant, claims: TokenClaims, challengeID: String) async throws -> ChallengeProgress {
        let read = try await store.challengeAndAction(tenantID: tenant.id, id: challengeID, idempotencyKey: claims.idk)
        guard let challenge = read.challenge, challenge.kind == .push, challenge.userID == claims.sub, challenge.idempotencyKey == claims.idk
        else { throw AssentError(.notFound, "No such challenge for this token.") }
        let now = clock.nowMilliseconds()
        switch challenge.state {
        case .approved:
            guard let action = read.action else {
                throw AssentError(.notFound, "The challenge's action no longer exists.")
            }
            let lifetime = Int64(tenant.settings.tokenLifetimeSeconds ?? Int(defaultTokenLifetime))
            let token = try tokens.issue(kind: .access, tenant: tenant, action: action, scope: nil, lifetime: lifetime)
            return ChallengeProgress(isConsumed: true, isVerified: true, accessToken: token)
        case .denied:
            return ChallengeProgress(isConsumed: true, isVerified: false)
        case .pending, .claimed:
            return ChallengeProgress(isConsumed: now >= challenge.expiresAt, isVerified: false)
        }
    }

    /// Push challenges in `store`; `deliveries` queues their notifications, `webhook` calls a tenant's own provider
    /// synchronously, `wake` starts the delivery worker at once and `guards` refuses starts for throttled or locked
    /// users.
    package init(
        store: any ActionStore & CredentialStore & ChallengeStore & UserStore,
        clock: WallClock,
        tokens: TokenIssuer,
        defaultTokenLifetime: Int64,
        deliveries: any PushDeliveryStore,
        webhook: PushWebhookSender,
        wake: @escaping @Sendable () -> Void,
        guards: PushGuards,
        metrics: DomainMetrics? = nil
    ) {
        self.metrics = metrics
        self.guards = guards
        self.store = store
        self.clock = clock
        self.tokens = tokens
        self.defaultTokenLifetime = defaultTokenLifetime
        self.deliveries = deliveries
        self.webhook = webhook
        self.wake = wake
    }
}
