import AssentCrypto
package import AssentWire
import Foundation

/// QR challenges: opened by a page (anonymous with the tenant ID, or for a tracked action with its token), claimed
/// by exactly one device (compare-and-set), answered by that device only, and watched by the page through a poll
/// secret (`deviceCode`) or a WebSocket.
package struct QRChallengeService: Sendable {
    let store: any ActionStore & ChallengeStore & UserStore
    let clock: WallClock
    let tokens: TokenIssuer
    let events: ChallengeEvents
    let defaultTokenLifetime: Int64
    /// Counts challenges started.
    let metrics: DomainMetrics?

    /// Context of the page that opens a challenge.
    package struct Initiator: Sendable {
        var ipAddress: String?
        var userAgent: String?

        /// The initiating page's address and browser, as the request that started the challenge carried them.
        package init(ipAddress: String?, userAgent: String?) {
            self.ipAddress = ipAddress
            self.userAgent = userAgent
        }
    }

    /// An opened challenge with its poll secret, which only the page that opened it holds.
    package struct Started: Sendable {
        /// The new challenge.
        package var challenge: Challenge
        /// The poll secret; the challenge keeps only its hash.
        package var deviceCode: String
    }

    /// A device's claim of a challenge: the challenge id from the QR code and the device's signature over it (or
    /// over Assent's bound claim message).
    package struct Claim: Sendable {
        /// The challenge.
        package var challengeID: String
        /// The signature.
        package var signature: String

        /// The claim of `challengeID`, signed with `signature`.
        package init(challengeID: String, signature: String) {
            self.challengeID = challengeID
            self.signature = signature
        }
    }

    /// What the claiming device learns about who is asking, before the user decides.
    package struct Claimed: Sendable {
        /// The challenge, now claimed (with its initiating page's address and browser, action and key).
        package var challenge: Challenge
        /// The challenge's custom data the tenant marked public.
        package var publicCustom: [String: JSONValue]?
        /// The user's custom data the tenant marked public.
        package var publicUserCustom: [String: JSONValue]?
        /// Where the initiating request came from, as the backend tracked it with the action; nil when none was
        /// tracked, and always for an anonymous challenge (there is no location database).
        package var location: String?
    }

    /// Opens a challenge. With `claims` it belongs to the tracked action (its custom data and context are used);
    /// without, it is anonymous: `action` names it (one of the tenant's ``TenantSettings/anonymousActionCodes``) and
    /// the claiming device's user becomes its user.
    ///
    /// Anyone who knows the tenant ID can start an anonymous challenge, so nothing its caller says may reach the
    /// approving device as the tenant's word: the start's `custom` is never read (the device's `custom` holds only what the backend
    /// tracked; the official SDKs could not show a mark on it), the action code must be one the tenant allows
    /// anonymously, and approvals follow ``TenantSettings/anonymousApprovalFactor`` whatever code it names.
    package func start(
        tenant: Tenant, claims: TokenClaims?, action: String?, initiator: Initiator
    ) async throws -> Started {
        let now = clock.nowMilliseconds()
        let timeout = Int64(min(max(tenant.settings.challengeTimeoutSeconds, 10), 600))
        var challenge = Challenge(
            id: Challenge.newID(), tenantID: tenant.id, kind: .qrCode, createdAt: now,
            expiresAt: now + timeout * 1000)
        if let claims {
            guard let tracked = try await store.action(tenantID: tenant.id, idempotencyKey: claims.idk),
                  tracked.userID == claims.sub
            else { throw AssentError(.invalidToken, "The token's action no longer exists.") }
            guard tracked.state == .challengeRequired else {
                throw AssentError(.conflict, "The action is not waiting for a challenge (it is \(tracked.state.rawValue)).")
            }
            challenge.userID = claims.sub
            challenge.actionCode = claims.act
            challenge.idempotencyKey = claims.idk
            challenge.custom = tracked.custom
            challenge.ipAddress = tracked.ipAddress ?? initiator.ipAddress
            challenge.userAgent = tracked.userAgent ?? initiator.userAgent
            challenge.deviceID = tracked.deviceID
        } else {
            guard let action, !action.isEmpty else {
                throw AssentError(.invalidRequest, "action is required for an anonymous QR challenge.")
            }
            guard tenant.settings.anonymousActionCodes.contains(action) else {
                throw AssentError(
                    .actionNotAllowed,
                    "The action '\(action)' cannot be started anonymously; the tenant allows "
                        + Self.list(tenant.settings.anonymousActionCodes)
                        + ". Track the action from the backend and start the challenge with its token.")
            }
            challenge.actionCode = action
            challenge.isAnonymous = true
            challenge.ipAddress = initiator.ipAddress
            challenge.userAgent = initiator.userAgent
        }
        let deviceCode = Base64.encodeURL(SecureRandom.bytes(24))
        challenge.deviceCodeHash = SHA256.hash(Array(deviceCode.utf8))
        _ = try await store.insertChallenge(challenge, maxOpenForUser: nil)
        metrics?.challenge(.qrCode, .started, tenantID: challenge.tenantID)
        return Started(challenge: challenge, deviceCode: deviceCode)
    }

    /// `'a', 'b'` or `no action codes`.
    private static func list(_ codes: [String]) -> String {
        codes.isEmpty ? "no action codes" : codes.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// Claims the challenge for `authenticator`, signed over the challenge id (a compatible credential) or Assent's
    /// bound claim message, which no answer accepts. Exactly one device wins; the others get `challenge_closed`. Where
    /// the tenant requires attested approvals for the challenge's action, an unattested credential is refused
    /// (`403 attestation_required`) and the challenge stays pending.
    /// Returns what the device should show before the user decides.
    package func claim(
        tenant: Tenant, authenticator: Authenticator, key: DeviceKey, claim: Claim
    ) async throws -> Claimed {
        guard key.verifies(
            claim.signature, as: authenticator.signatureScheme,
            compatible: SignedMessage.challenge(claim.challengeID),
            bound: SignedMessage.claim(credentialId: authenticator.id, challengeId: claim.challengeID))
        else { throw AssentError(.invalidSignature, "The signature does not verify over this claim.") }
        guard let challenge = try await store.challenge(tenantID: tenant.id, id: claim.challengeID),
              challenge.kind == .qrCode
        else { throw AssentError(.notFound, "No such challenge.") }
        let now = clock.nowMilliseconds()
        guard challenge.state == .pending, now < challenge.expiresAt else {
            throw AssentError(.challengeClosed, "The challenge has expired or was already claimed.")
        }
        if let user = challenge.userID, user != authenticator.userID {
            throw AssentError(.forbidden, "This challenge is for another user.")
        }
        // A device that may not answer (the tenant requires attested approvals) may not take the challenge either.
        try ApprovalAttestation().requireAttested(tenant: tenant, authenticator: authenticator, actionCode: challenge.actionCode)
        var anonymous: Action?
        if challenge.userID == nil {
            var action = Action(
                tenantID: tenant.id, userID: authenticator.userID, actionCode: challenge.actionCode ?? "qr-sign-in",
                idempotencyKey: UUID().uuidString.lowercased(), state: .challengeRequired, now: now)
            action.ipAddress = challenge.ipAddress
            action.userAgent = challenge.userAgent
            action.custom = challenge.custom
            anonymous = action
        }
        guard let claimed = try await store.claimChallenge(
            tenantID: tenant.id, id: challenge.id, authenticator: authenticator, anonymousAction: anonymous, now: now)
        else { throw AssentError(.challengeClosed, "The challenge has expired or was already claimed.") }
        events.publish(claimed)
        let user = try await store.user(tenantID: tenant.id, userID: authenticator.userID)
        // The location the backend tracked with the action; an anonymous challenge has none (no location database).
        var location: String?
        if anonymous == nil, let key = claimed.idempotencyKey {
            location = try await store.action(tenantID: tenant.id, idempotencyKey: key)?.location
        }
        return Claimed(
            challenge: claimed, publicCustom: tenant.settings.publicCustom(claimed.custom),
            publicUserCustom: tenant.settings.publicUserCustom(user?.custom), location: location)
    }

    /// The QR challenge with this id when it is still open (pending or claimed, unexpired).
    package func openChallenge(tenantID: String, id: String) async throws -> Challenge? {
        guard id.utf8.count <= 200, tenantID.utf8.count <= 128,
              let challenge = try await store.challenge(tenantID: tenantID, id: id),
              challenge.kind == .qrCode, challenge.isOpen(at: clock.nowMilliseconds())
        else { return nil }
        return challenge
    }

    /// The challenge's state for the holder of its device code.
    package func verify(tenant: Tenant, challengeID: String, deviceCode: String) async throws -> ChallengeProgress {
        guard let challenge = try await store.challenge(tenantID: tenant.id, id: challengeID),
              challenge.kind == .qrCode, let expected = challenge.deviceCodeHash,
              ConstantTime.equals(SHA256.hash(Array(deviceCode.utf8)), expected)
        else { throw AssentError(.notFound, "No such challenge for this device code.") }
        return try await state(of: challenge, tenant: tenant)
    }

    /// The page's view of a challenge; an approved one carries an access token.
    func state(of challenge: Challenge, tenant: Tenant) async throws -> ChallengeProgress {
        let now = clock.nowMilliseconds()
        switch challenge.state {
        case .approved:
            return ChallengeProgress(
                isClaimed: true, isConsumed: true, isVerified: true, accessToken: try await accessToken(challenge, tenant: tenant))
        case .denied:
            return ChallengeProgress(isClaimed: true, isConsumed: true, isVerified: false)
        case .claimed:
            return ChallengeProgress(isClaimed: true, isConsumed: now >= challenge.expiresAt, isVerified: false)
        case .pending:
            return ChallengeProgress(isClaimed: false, isConsumed: now >= challenge.expiresAt, isVerified: false)
        }
    }

    /// A token for the backend's validate, bound to the challenge's action.
    package func accessToken(_ challenge: Challenge, tenant: Tenant) async throws -> String? {
        guard let key = challenge.idempotencyKey,
              let action = try await store.action(tenantID: tenant.id, idempotencyKey: key)
        else { return nil }
        let lifetime = Int64(tenant.settings.tokenLifetimeSeconds ?? Int(defaultTokenLifetime))
        return try tokens.issue(kind: .access, tenant: tenant, action: action, scope: nil, lifetime: lifetime)
    }

    /// QR challenges in `store`, their tokens issued by `tokens` and their changes announced on `events`.
    package init(
        store: any ActionStore & ChallengeStore & UserStore,
        clock: WallClock,
        tokens: TokenIssuer,
        events: ChallengeEvents,
        defaultTokenLifetime: Int64,
        metrics: DomainMetrics? = nil
    ) {
        self.metrics = metrics
        self.store = store
        self.clock = clock
        self.tokens = tokens
        self.events = events
        self.defaultTokenLifetime = defaultTokenLifetime
    }
}
