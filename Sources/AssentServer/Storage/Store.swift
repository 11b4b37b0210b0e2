import AssentWire

/// Everything Assent keeps, behind one protocol so the embedded SQLite store and a PostgreSQL one are
/// interchangeable. Every method is one atomic unit: it either happens completely and durably before it returns,
/// or not at all. Domain code sees only these domain types, never SQL.
public protocol Store: Sendable {
    // MARK: Tenants
    /// Adds a tenant; fails with `constraintViolation` when the id or secret already exists.
    func insertTenant(_ tenant: Tenant) async throws
    /// The tenant with this id.
    func tenant(id: String) async throws -> Tenant?
    /// The tenant whose secret key hashes to `secretHash`.
    func tenant(secretHash: [UInt8]) async throws -> Tenant?
    /// All tenants, oldest first.
    func tenants() async throws -> [Tenant]
    /// Replaces a tenant's name, secret hash, key version and settings; false when it does not exist.
    func updateTenant(_ tenant: Tenant) async throws -> Bool

    // MARK: Users
    /// The user, if Assent has a record of it.
    func user(tenantID: String, userID: String) async throws -> User?
    /// Creates or replaces a user record.
    func saveUser(_ user: User) async throws
    /// Deletes the user with its authenticators and actions; false when there was nothing to delete.
    func deleteUser(tenantID: String, userID: String) async throws -> Bool

    // MARK: Actions
    /// Records a tracked action. In one transaction: reads the user's authenticators, lets `decide` pick the state
    /// (and fill in the rest of the action) from them, creates or updates the user record with `user`, and inserts
    /// the action. When an action with the same idempotency key exists for the same user and action code, returns it
    /// unchanged instead; for another user or action code it fails with `constraintViolation`.
    func trackAction(
        _ action: Action, user: @escaping @Sendable (User?) -> User,
        decide: @escaping @Sendable (inout Action, [Authenticator]) -> Void
    ) async throws -> TrackOutcome
    /// The action named by its idempotency key.
    func action(tenantID: String, idempotencyKey: String) async throws -> Action?
    /// Sets an action's state (and verification method), stamping `stateUpdatedAt`; nil when it does not exist.
    func updateActionState(
        tenantID: String, idempotencyKey: String, state: ActionState, verificationMethod: VerificationMethod?, at: Int64
    ) async throws -> Action?
    /// Marks a successful validation, once: true for the first caller, false if it was already validated.
    func markActionValidated(tenantID: String, idempotencyKey: String, at: Int64) async throws -> Bool

    // MARK: Authenticators
    /// The user's authenticators, oldest first.
    func authenticators(tenantID: String, userID: String) async throws -> [Authenticator]
    /// Adds an authenticator (creating the user record when missing).
    func insertAuthenticator(_ authenticator: Authenticator) async throws
    /// Deletes one authenticator of the user; false when it was not there.
    func deleteAuthenticator(tenantID: String, userID: String, id: String) async throws -> Bool

    /// Throws unless the database answers a trivial query and accepts a trivial write.
    func healthCheck() async throws

    /// Finishes pending writes and releases the database.
    func close() async
}

/// What `trackAction` did.
public struct TrackOutcome: Sendable {
    /// The action as stored.
    public var action: Action
    /// The user's authenticators when the action was recorded.
    public var authenticators: [Authenticator]
    /// False when an existing action with the same idempotency key was returned.
    public var created: Bool
}
