package import AssentWire
import Foundation

/// Users and their authenticators, as the tenant's backend sees them.
package struct UserService: Sendable {
    /// Methods a backend may enrol for a user it verified itself, and the contact each needs.
    static let backendVerifiedMethods: [VerificationMethod: String] = [
        .emailOTP: "email", VerificationMethod(rawValue: "EMAIL_MAGIC_LINK"): "email",
        .sms: "phoneNumber", VerificationMethod(rawValue: "WHATSAPP"): "phoneNumber",
    ]

    private let store: any UserStore & CredentialStore
    private let clock: WallClock
    private let webhooks: WebhookEvents

    package init(store: any UserStore & CredentialStore, clock: WallClock, webhooks: WebhookEvents) {
        self.store = store
        self.clock = clock
        self.webhooks = webhooks
    }

    /// The user and authenticators. An unknown user is an empty, not-enrolled user (as the official SDKs expect).
    package func user(tenant: Tenant, userID: String) async throws -> (User, [Authenticator]) {
        let (user, authenticators, _) = try await lookUp(tenant: tenant, userID: userID)
        return (user, authenticators)
    }

    /// The user as ``user(tenant:userID:)`` answers it, and whether the tenant knows the user at all (tracked,
    /// updated or enrolled): the wire answers an unknown user as a fresh one, which a tool may want to tell apart.
    package func lookUp(tenant: Tenant, userID: String) async throws -> (User, [Authenticator], known: Bool) {
        let stored = try await store.user(tenantID: tenant.id, userID: userID)
        let authenticators = try await store.authenticators(tenantID: tenant.id, userID: userID)
        let user = stored ?? User(tenantID: tenant.id, userID: userID, now: clock.nowMilliseconds())
        return (user, authenticators, stored != nil || !authenticators.isEmpty)
    }

    /// Applies `changes` (a field that is absent stays as it is; `.some(nil)` clears it), creating the user when unknown.
    package func update(tenant: Tenant, userID: String, changes: UpdateUserRequest) async throws -> (User, [Authenticator]) {
        let now = clock.nowMilliseconds()
        var user = try await store.user(tenantID: tenant.id, userID: userID)
            ?? User(tenantID: tenant.id, userID: userID, now: now)
        if let email = changes.email { user.email = email }
        if let verified = changes.emailVerified { user.emailVerified = verified }
        if let phone = changes.phoneNumber { user.phoneNumber = phone }
        if let verified = changes.phoneNumberVerified { user.phoneNumberVerified = verified }
        if let username = changes.username { user.username = username }
        if let displayName = changes.displayName { user.displayName = displayName }
        if let locale = changes.locale { user.locale = locale }
        if let custom = changes.custom { user.custom = custom }
        user.updatedAt = now
        try await store.saveUser(user)
        return (user, try await store.authenticators(tenantID: tenant.id, userID: userID))
    }

    /// Deletes the user with its authenticators and actions. Deleting an unknown user changes nothing and succeeds.
    package func delete(tenant: Tenant, userID: String) async throws -> Bool {
        try await store.deleteUser(tenantID: tenant.id, userID: userID) { [webhooks] in
            webhooks.authenticator(.authenticatorDeleted, $0, tenant: tenant)
        }
    }

    /// The user's authenticators.
    package func authenticators(tenant: Tenant, userID: String) async throws -> [Authenticator] {
        try await store.authenticators(tenantID: tenant.id, userID: userID)
    }

    /// Records an authenticator the backend verified itself (an e-mail address or phone number). Device
    /// credentials (`PUSH`, `DEVICE`) can only be enrolled by the device that holds the key.
    package func enrollVerified(
        tenant: Tenant, userID: String, method: VerificationMethod, email: String?, phoneNumber: String?, isDefault: Bool
    ) async throws -> Authenticator {
        guard let contact = Self.backendVerifiedMethods[method] else {
            throw AssentError(
                .invalidRequest,
                "verificationMethod \(method.rawValue) cannot be enrolled by the backend; supported: "
                    + Self.backendVerifiedMethods.keys.map(\.rawValue).sorted().joined(separator: ", ") + ".")
        }
        let now = clock.nowMilliseconds()
        var authenticator = Authenticator(
            id: UUID().uuidString.lowercased(), tenantID: tenant.id, userID: userID, verificationMethod: method,
            createdAt: now)
        authenticator.email = email
        authenticator.phoneNumber = phoneNumber
        authenticator.verifiedAt = now
        authenticator.isDefault = isDefault
        guard (contact == "email" ? email : phoneNumber)?.isEmpty == false else {
            throw AssentError(.invalidRequest, "verificationMethod \(method.rawValue) needs \(contact).")
        }
        try await store.insertAuthenticator(authenticator)
        return authenticator
    }

    /// Deletes one authenticator; `not_found` when the user has no such authenticator.
    package func deleteAuthenticator(tenant: Tenant, userID: String, id: String) async throws {
        let deleted = try await store.deleteAuthenticator(tenantID: tenant.id, userID: userID, id: id) { [webhooks] in
            webhooks.authenticator(.authenticatorDeleted, $0, tenant: tenant)
        }
        guard deleted else {
            throw AssentError(.notFound, "The user has no authenticator \(id).")
        }
    }
}
