package import AssentWire
import Foundation

/// Users and their authenticators, as the tenant's backend (and the admin console) sees them. Each change queues its
/// webhook events and appends its audit entry in the change's own transaction; `actor` names who asked
/// (``AuditEvent/actor``).
package struct UserService: Sendable {
    /// Methods a backend may enrol for a user it verified itself, and the contact each needs.
    static let backendVerifiedMethods: [VerificationMethod: String] = [
        .emailOTP: "email", VerificationMethod(rawValue: "EMAIL_MAGIC_LINK"): "email",
        .sms: "phoneNumber", VerificationMethod(rawValue: "WHATSAPP"): "phoneNumber",
    ]

    private let store: any UserStore & CredentialStore & UserDirectoryStore & UserDataStore
    private let clock: WallClock
    private let webhooks: WebhookEvents
    private let audit: AuditLog

    /// Users in `store`; each change queues its events through `webhooks` and its entry in `audit`.
    package init(
        store: any UserStore & CredentialStore & UserDirectoryStore & UserDataStore, clock: WallClock, webhooks: WebhookEvents,
        audit: AuditLog
    ) {
        self.store = store
        self.clock = clock
        self.webhooks = webhooks
        self.audit = audit
    }

    /// A user with its authenticators, as the server API answers it.
    package struct Profile: Sendable {
        /// The user (a fresh, empty one when the tenant does not know it).
        package var user: User
        /// The user's authenticators.
        package var authenticators: [Authenticator]
        /// Whether the tenant knows the user at all (tracked, updated or enrolled).
        package var isKnown: Bool
    }

    /// The user and authenticators. An unknown user is an empty, not-enrolled user (as the official SDKs expect);
    /// `isKnown` tells it apart, for a tool that wants to.
    package func lookUp(tenant: Tenant, userID: String) async throws -> Profile {
        let stored = try await store.user(tenantID: tenant.id, userID: userID)
        let authenticators = try await store.authenticators(tenantID: tenant.id, userID: userID)
        let user = stored ?? User(tenantID: tenant.id, userID: userID, now: clock.nowMilliseconds())
        return Profile(user: user, authenticators: authenticators, isKnown: stored != nil || !authenticators.isEmpty)
    }

    /// Makes `edit` (a field that is absent stays as it is; `.some(nil)` clears it), creating the user when unknown.
    package func update(tenant: Tenant, userID: String, edit: UserEdit) async throws -> Profile {
        let now = clock.nowMilliseconds()
        var user = try await store.user(tenantID: tenant.id, userID: userID)
            ?? User(tenantID: tenant.id, userID: userID, now: now)
        edit.apply(to: &user)
        user.updatedAt = now
        try await store.saveUser(user)
        return Profile(
            user: user, authenticators: try await store.authenticators(tenantID: tenant.id, userID: userID), isKnown: true)
    }

    /// Deletes the user with its authenticators and actions, recording `user.deleted`. Deleting an unknown user
    /// changes (and records) nothing and succeeds.
    package func delete(tenant: Tenant, userID: String, actor: String) async throws -> Bool {
        try await store.deleteUser(
            tenantID: tenant.id, userID: userID,
            audit: audit.entry(tenantID: tenant.id, .userDeleted, actor: actor, subject: userID)
        ) { [webhooks] in
            webhooks.authenticator(.authenticatorDeleted, $0, tenant: tenant)
        }
    }

    /// Everything stored about the user (``UserData``), recording `user.exported` with `actor` in the same
    /// transaction; the answer includes that entry.
    package func export(tenant: Tenant, userID: String, actor: String) async throws -> UserData {
        let now = clock.nowMilliseconds()
        var data = try await store.userData(
            tenantID: tenant.id, userID: userID,
            audit: audit.entry(tenantID: tenant.id, .userExported, actor: actor, subject: userID))
        data.exportedAt = now
        return data
    }

    /// The user as stored; nil when the tenant has no record of it (the console's "no such user").
    package func stored(tenant: Tenant, userID: String) async throws -> User? {
        try await store.user(tenantID: tenant.id, userID: userID)
    }

    /// A page of the tenant's users whose id starts with `prefix`, after `after` (``UserDirectoryStore/searchUsers(tenantID:prefix:after:limit:)``).
    package func search(tenant: Tenant, prefix: String, after: String?, limit: Int) async throws -> [User] {
        try await store.searchUsers(tenantID: tenant.id, prefix: prefix, after: after, limit: limit)
    }

    /// The user's `limit` newest challenges, newest first.
    package func recentChallenges(tenant: Tenant, userID: String, limit: Int) async throws -> [Challenge] {
        try await store.recentChallenges(tenantID: tenant.id, userID: userID, limit: limit)
    }

    /// The user's authenticators.
    package func authenticators(tenant: Tenant, userID: String) async throws -> [Authenticator] {
        try await store.authenticators(tenantID: tenant.id, userID: userID)
    }

    /// Records an authenticator the backend verified itself (an e-mail address or phone number), with its
    /// `credential.enrolled` entry. Device credentials (`PUSH`, `DEVICE`) can only be enrolled by the device that
    /// holds the key.
    package func enrollVerified(
        tenant: Tenant, userID: String, method: VerificationMethod, email: String?, phoneNumber: String?, isDefault: Bool,
        actor: String
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
        try await store.insertAuthenticator(
            authenticator,
            audit: audit.entry(
                tenantID: tenant.id, .credentialEnrolled, actor: actor, subject: authenticator.id,
                details: ["userId": userID, "verificationMethod": method.rawValue]))
        return authenticator
    }

    /// Deletes one authenticator, recording `credential.removed`; `not_found` when the user has no such authenticator.
    package func deleteAuthenticator(tenant: Tenant, userID: String, id: String, actor: String) async throws {
        let deleted = try await store.deleteAuthenticator(
            tenantID: tenant.id, userID: userID, id: id,
            audit: audit.entry(tenantID: tenant.id, .credentialRemoved, actor: actor, subject: id, details: ["userId": userID])
        ) { [webhooks] in
            webhooks.authenticator(.authenticatorDeleted, $0, tenant: tenant)
        }
        guard deleted else {
            throw AssentError(.notFound, "The user has no authenticator \(id).")
        }
    }
}
