import AssentCrypto
import AssentWire
import Foundation

/// Push challenges: started by the initiating page with a track token, pulled by the user's devices, answered once
/// with a signature, and watched by the page until it gets an access token for the backend.
struct PushChallengeService: Sendable {
    let store: any Store
    let clock: WallClock
    let tokens: TokenIssuer
    let defaultTokenLifetime: Int64

    /// Opens a push challenge for the token's action, for all the user's live push credentials or one of them.
    func start(
        tenant: Tenant, claims: TokenClaims, action: String?, targetID: String?
    ) async throws -> (Challenge, [Authenticator]) {
        if let action, action != claims.act {
            throw AssentError(.invalidRequest, "action must be the tracked action (\(claims.act)).")
        }
        guard let tracked = try await store.action(tenantID: tenant.id, idempotencyKey: claims.idk),
              tracked.userID == claims.sub
        else { throw AssentError(.invalidToken, "The token's action no longer exists.") }
        // Only an action waiting for a challenge gets one: not one the backend blocked or allowed, nor one that a
        // device already approved or denied ("this wasn't me" ends the action's pushes).
        guard tracked.state == .challengeRequired else {
            throw AssentError(.conflict, "The action is not waiting for a challenge (it is \(tracked.state.rawValue)).")
        }
        let now = clock.nowMilliseconds()
        var targets = try await store.authenticators(tenantID: tenant.id, userID: claims.sub).filter {
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
        guard try await store.insertChallenge(challenge, maxOpenForUser: tenant.settings.maxPendingPushChallenges) else {
            throw AssentError(.tooManyRequests, "Too many push challenges are waiting for this user; let them expire or be answered.")
        }
        return (challenge, targets)
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

    /// The newest challenge `authenticator` may answer. With a valid signature over a fresh nonce, the tenant's
    /// public custom data comes along; the nonce is then used up.
    func pending(tenant: Tenant, authenticator: Authenticator, key: DeviceKey, signature: String?) async throws -> PushChallengeResponse {
        let now = clock.nowMilliseconds()
        var signed = false
        if let signature {
            // A signature that matches no open message only withholds the public custom data: a refusal here would
            // let anyone who floods the nonce endpoint lock the device out of its challenges.
            let open = try await store.openNonces(authenticatorID: authenticator.id, purpose: .getChallenge, now: now)
            if let nonce = open.first(where: { key.verifies(signature, message: $0.message) }),
               try await store.consumeNonce(id: nonce.id, authenticatorID: authenticator.id, purpose: .getChallenge, now: now) != nil
            {
                signed = true
            }
        }
        var response = PushChallengeResponse(userAuthenticatorId: authenticator.id)
        guard let challenge = try await store.pendingPushChallenge(
            tenantID: tenant.id, userID: authenticator.userID, authenticatorID: authenticator.id, now: now)
        else { return response }
        response.challengeId = challenge.id
        response.userId = challenge.userID
        response.actionCode = challenge.actionCode
        response.idempotencyKey = challenge.idempotencyKey
        response.deviceId = challenge.deviceID
        response.userAgent = challenge.userAgent
        response.ipAddress = challenge.ipAddress
        response.expiresAt = challenge.expiresAt / 1000
        response.verificationCodeRequired = challenge.verificationCode != nil
        if signed {
            response.custom = tenant.settings.publicCustom(challenge.custom)
            let user = try await store.user(tenantID: tenant.id, userID: authenticator.userID)
            if let custom = tenant.settings.publicUserCustom(user?.custom) {
                response.user = ChallengeUser(custom: custom)
            }
        }
        return response
    }

    /// The challenge's state for the page that started it; an approved challenge comes with an access token.
    func verify(tenant: Tenant, claims: TokenClaims, challengeID: String) async throws -> VerifyPushResponse {
        guard let challenge = try await store.challenge(tenantID: tenant.id, id: challengeID),
              challenge.kind == .push, challenge.userID == claims.sub, challenge.idempotencyKey == claims.idk
        else { throw AssentError(.notFound, "No such challenge for this token.") }
        let now = clock.nowMilliseconds()
        switch challenge.state {
        case .approved:
            guard let action = try await store.action(tenantID: tenant.id, idempotencyKey: claims.idk) else {
                throw AssentError(.notFound, "The challenge's action no longer exists.")
            }
            let lifetime = Int64(tenant.settings.tokenLifetimeSeconds ?? Int(defaultTokenLifetime))
            let token = try tokens.issue(kind: .access, tenant: tenant, action: action, scope: nil, lifetime: lifetime)
            return VerifyPushResponse(isVerified: true, isConsumed: true, accessToken: token)
        case .denied:
            return VerifyPushResponse(isVerified: false, isConsumed: true, accessToken: nil)
        case .pending, .claimed:
            return VerifyPushResponse(isVerified: false, isConsumed: now >= challenge.expiresAt, accessToken: nil)
        }
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
