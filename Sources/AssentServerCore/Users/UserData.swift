/// Everything Assent holds about one user of a tenant, read in one transaction: what a data-subject request
/// (`GET /v1/users/{userId}/export`, `assent admin user export`, the console's export button) answers. Nothing secret
/// is in it because Assent holds nothing secret about a user: credentials are public keys, and PowerAuth activations'
/// sealed secrets are not exported.
package struct UserData: Sendable {
    /// The user record; nil when the tenant has none (the other lists are then empty too, but for audit entries that
    /// name a user who was deleted).
    package var user: User?
    /// The user's authenticators, with their attestation verdicts.
    package var authenticators: [Authenticator]
    /// The user's PowerAuth activations.
    package var activations: [ActivationRecord]
    /// The user's tracked actions, oldest first.
    package var actions: [Action]
    /// The user's challenges still stored (they are swept a day after they expire), oldest first.
    package var challenges: [Challenge]
    /// The user's sign-in history, newest first.
    package var signIns: [SignIn]
    /// The audit entries that name the user: as their subject, or as the `userId` of their details.
    package var auditEntries: [AuditEntry]
    /// When it was read, milliseconds since the epoch (``UserService/export(tenant:userID:actor:)`` sets it).
    package var exportedAt: Int64 = 0

    /// The data as read.
    package init(
        user: User?, authenticators: [Authenticator], activations: [ActivationRecord], actions: [Action],
        challenges: [Challenge], signIns: [SignIn], auditEntries: [AuditEntry]
    ) {
        self.user = user
        self.authenticators = authenticators
        self.activations = activations
        self.actions = actions
        self.challenges = challenges
        self.signIns = signIns
        self.auditEntries = auditEntries
    }
}
