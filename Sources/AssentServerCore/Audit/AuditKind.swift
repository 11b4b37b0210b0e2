/// What an audit entry records. A stable, dotted name stored as text (new kinds need no migration).
package struct AuditKind: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// The stored name, e.g. `tenant.created`.
    package let rawValue: String

    /// A kind named `rawValue`.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// A tenant was created.
    package static let tenantCreated = AuditKind(rawValue: "tenant.created")
    /// A tenant's secret key was replaced.
    package static let secretRotated = AuditKind(rawValue: "tenant.secret_rotated")
    /// A tenant's settings changed (the details name the settings, never their secret values).
    package static let settingsChanged = AuditKind(rawValue: "tenant.settings_changed")
    /// A tenant's push provider or its credentials changed.
    package static let pushProviderChanged = AuditKind(rawValue: "tenant.push_provider_changed")
    /// A credential (authenticator) was enrolled.
    package static let credentialEnrolled = AuditKind(rawValue: "credential.enrolled")
    /// A credential (authenticator) was removed.
    package static let credentialRemoved = AuditKind(rawValue: "credential.removed")
    /// A PowerAuth activation was blocked (by the backend, or by too many failed attempts).
    package static let activationBlocked = AuditKind(rawValue: "activation.blocked")
    /// A PowerAuth activation was unblocked.
    package static let activationUnblocked = AuditKind(rawValue: "activation.unblocked")
    /// A PowerAuth activation was removed.
    package static let activationRemoved = AuditKind(rawValue: "activation.removed")
    /// A user was deleted with its authenticators and actions.
    package static let userDeleted = AuditKind(rawValue: "user.deleted")
    /// Everything stored about a user was exported (a data-subject request).
    package static let userExported = AuditKind(rawValue: "user.exported")
    /// A device said "this wasn't me".
    package static let fraudReported = AuditKind(rawValue: "challenge.fraud_reported")
    /// A summary of requests a rate limit refused.
    package static let rateLimited = AuditKind(rawValue: "rate_limit.tripped")
    /// A bulk seed of users and credentials (one entry for the whole run).
    package static let seeded = AuditKind(rawValue: "users.seeded")
    /// Someone signed in to the admin console.
    package static let consoleSignIn = AuditKind(rawValue: "console.sign_in")
    /// Someone signed out of the admin console (their session ended).
    package static let consoleSignOut = AuditKind(rawValue: "console.sign_out")
    /// Older entries were dropped by retention; the details carry the last dropped entry's sequence and MAC so the
    /// chain still verifies from the first kept entry.
    package static let checkpoint = AuditKind(rawValue: "audit.checkpoint")

    /// The stored name.
    package var description: String { rawValue }
}
