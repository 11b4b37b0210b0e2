import AssentCrypto
package import AssentWire
import Foundation

/// Tracks actions, reports and changes their state, and validates the tokens that prove them.
package struct ActionService: Sendable {
    /// A tracked action with its token.
    package struct Tracked: Sendable {
        /// The action as stored.
        package var action: Action
        /// The client token.
        package var token: String
        /// The user's authenticators when it was tracked.
        package var authenticators: [Authenticator]
    }

    /// What checking a token found (``validate(tenant:token:userID:actionCode:)``): whether it proves its action, the
    /// action it names, and why not when it does not.
    package struct Validation: Sendable {
        /// True when the action succeeded and no token of it was validated before.
        package var isValid: Bool
        /// The user the token names (nil when it is not a token of the tenant).
        package var userID: String?
        /// The action code the token names.
        package var actionCode: String?
        /// The idempotency key the token names.
        package var idempotencyKey: String?
        /// The action as read, when it still exists.
        package var action: Action?
        /// Why the token is not valid, when it is not.
        package var failure: String?

        /// A token that proves nothing because of `failure`, naming no action.
        init(failure: String) {
            isValid = false
            self.failure = failure
        }

        /// A token of the tenant whose action is gone.
        init(claims: TokenClaims, failure: String) {
            isValid = false
            userID = claims.sub
            actionCode = claims.act
            idempotencyKey = claims.idk
            self.failure = failure
        }

        /// A token of the tenant whose action was read; not (yet) valid.
        init(action: Action) {
            isValid = false
            userID = action.userID
            actionCode = action.actionCode
            idempotencyKey = action.idempotencyKey
            self.action = action
        }
    }

    private let store: any ActionStore
    private let tokens: TokenIssuer
    private let clock: WallClock
    private let defaultTokenLifetime: Int64

    /// Creates the service.
    package init(store: any ActionStore, tokens: TokenIssuer, clock: WallClock, defaultTokenLifetime: Int64) {
        self.store = store
        self.tokens = tokens
        self.clock = clock
        self.defaultTokenLifetime = defaultTokenLifetime
    }

    /// Records an action for `userID` and decides its state by the tenant's rule (see ``TenantSettings``).
    /// Tracking again with the same idempotency key returns the same action (with a fresh token).
    package func track(
        tenant: Tenant, userID: String, actionCode: String, attributes: TrackAttributes
    ) async throws -> Tracked {
        let now = clock.nowMilliseconds()
        var action = Action(
            tenantID: tenant.id, userID: userID, actionCode: actionCode,
            idempotencyKey: attributes.idempotencyKey ?? UUID().uuidString.lowercased(), state: .challengeRequired,
            now: now)
        action.ipAddress = attributes.ipAddress
        action.userAgent = attributes.userAgent
        action.deviceID = attributes.deviceID
        action.location = attributes.location
        action.redirectURL = attributes.redirectURL
        action.custom = attributes.custom
        action.scope = attributes.scope
        let settings = tenant.settings
        let outcome: TrackOutcome
        do {
            outcome = try await store.trackAction(
                action,
                changes: UserChanges(
                    email: attributes.email, phoneNumber: attributes.phoneNumber, username: attributes.username,
                    locale: attributes.locale, now: now),
                states: TrackStates(
                    enrolled: settings.state(forAction: action.actionCode, isEnrolled: true),
                    notEnrolled: settings.state(forAction: action.actionCode, isEnrolled: false)))
        } catch let error as StoreError where error.code == .constraintViolation {
            throw AssentError(.conflict, "The idempotency key already names another user's or another action.")
        }
        let lifetime = Int64(settings.tokenLifetimeSeconds ?? Int(defaultTokenLifetime))
        let token = try tokens.issue(
            kind: .track, tenant: tenant, action: outcome.action, scope: outcome.action.scope, lifetime: lifetime)
        return Tracked(action: outcome.action, token: token, authenticators: outcome.authenticators)
    }

    /// The action of `userID` named by `actionCode` and `idempotencyKey`; `not_found` for any mismatch.
    package func action(tenant: Tenant, userID: String, actionCode: String, idempotencyKey: String) async throws -> Action {
        guard let action = try await store.action(tenantID: tenant.id, idempotencyKey: idempotencyKey),
              action.userID == userID, action.actionCode == actionCode
        else {
            throw AssentError(.notFound, "No action \(actionCode) with this idempotency key for this user.")
        }
        return action
    }

    /// Sets an action's state, as the tenant's backend decides (e.g. after its own review).
    package func updateState(
        tenant: Tenant, userID: String, actionCode: String, idempotencyKey: String, state: ActionState
    ) async throws -> Action {
        _ = try await action(tenant: tenant, userID: userID, actionCode: actionCode, idempotencyKey: idempotencyKey)
        guard let updated = try await store.updateActionState(
            tenantID: tenant.id, idempotencyKey: idempotencyKey, state: state, verificationMethod: nil,
            at: clock.nowMilliseconds())
        else {
            throw AssentError(.notFound, "No action \(actionCode) with this idempotency key for this user.")
        }
        return updated
    }

    /// Checks a token. It is valid when it is the tenant's, unexpired, names the given user and action (when given),
    /// its action succeeded (or was allowed), and no token of that action was validated before: a success proves
    /// one action once.
    package func validate(tenant: Tenant, token: String, userID: String?, actionCode: String?) async throws -> Validation {
        let claims: TokenClaims
        do {
            claims = try tokens.verify(token, tenant: tenant)
        } catch let error as AssentError {
            return Validation(failure: error.reason)
        }
        // Read and marked in one unit: marked only when every check below would pass and the action succeeded.
        let eligible = claims.typ == .access && (userID == nil || userID == claims.sub)
            && (actionCode == nil || actionCode == claims.act)
        let validation = try await store.validateAction(
            tenantID: tenant.id, idempotencyKey: claims.idk, userID: claims.sub, actionCode: claims.act,
            mark: eligible, at: clock.nowMilliseconds())
        guard let action = validation.action, action.userID == claims.sub, action.actionCode == claims.act else {
            return Validation(claims: claims, failure: "The action no longer exists.")
        }
        var result = Validation(action: action)
        if let userID, userID != action.userID {
            result.failure = "The token belongs to another user."
            return result
        }
        if let actionCode, actionCode != action.actionCode {
            result.failure = "The token belongs to another action."
            return result
        }
        guard claims.typ == .access else {
            result.failure = "Only the access token a completed challenge gives can be validated; this is a track token."
            return result
        }
        switch action.state {
        case .challengeSucceeded, .reviewSucceeded:
            if validation.marked {
                result.isValid = true
            } else {
                result.failure = "The action was already validated."
            }
        default:
            result.failure = "The action has not succeeded."
        }
        return result
    }
}
