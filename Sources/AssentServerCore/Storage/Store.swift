import AssentWire

/// Everything Assent keeps, behind one protocol so the embedded SQLite store and a PostgreSQL one are
/// interchangeable. Every method is one atomic unit: it either happens completely and durably before it returns,
/// or not at all. Domain code sees only these domain types, never SQL.
package protocol Store: Sendable {
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
    /// Deletes the user with its authenticators and actions, queueing `events` for each authenticator in the same
    /// transaction; false when there was nothing to delete.
    func deleteUser(
        tenantID: String, userID: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool

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
    /// Deletes one authenticator of the user, queueing `events` for it in the same transaction; false when it was
    /// not there.
    func deleteAuthenticator(
        tenantID: String, userID: String, id: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool

    // MARK: Device credentials
    /// The credential of `method` whose public key (canonical SPKI DER) is `publicKey`.
    func authenticator(tenantID: String, method: VerificationMethod, publicKey: [UInt8]) async throws -> Authenticator?
    /// Enrols a device credential: inserts `candidate`, or when the same key is already enrolled for the same user,
    /// updates that record's device fields (keeping its id) — re-enrolment reuses the key. Fails with
    /// `constraintViolation` when the key belongs to another user. Queues `events(stored, created)` in the same
    /// transaction.
    /// The enrolment token's action (`enrolmentKey`) is marked as having enrolled this key in the same transaction;
    /// when it already enrolled another key the enrolment fails with ``EnrolmentTokenUsed``.
    func enrollDeviceCredential(
        _ candidate: Authenticator, enrolmentKey: String,
        events: @escaping @Sendable (Authenticator, Bool) -> [WebhookEvent]
    ) async throws -> (Authenticator, created: Bool)
    /// A device renewed its credential: stamps its last verification and, when given, sets a new push token (clearing
    /// delivery errors) and/or a new lease end — only those columns, so concurrent changes to others are kept. Queues
    /// `events(renewed)` in the same transaction; nil when the credential no longer exists.
    func renewDeviceCredential(
        tenantID: String, id: String, pushToken: String?, expiresAt: Int64?, at: Int64,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Authenticator?

    // MARK: Nonces
    /// Stores a nonce, dropping that authenticator's expired or used nonces of the same purpose.
    func insertNonce(_ nonce: Nonce) async throws
    /// Unused, unexpired nonces of an authenticator for `purpose`, newest first.
    func openNonces(authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> [Nonce]
    /// The open (unused, unexpired) nonce with this id issued to `authenticatorID` for `purpose`.
    func openNonce(id: String, authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> Nonce?
    /// Marks the nonce used, once: returns it for the first caller while unexpired, nil otherwise.
    func consumeNonce(id: String, authenticatorID: String, purpose: Nonce.Purpose, now: Int64) async throws -> Nonce?

    // MARK: Challenges
    /// Stores a new challenge unless its user already has `maxOpenForUser` open ones of its kind (counted in the
    /// same transaction, so concurrent starts cannot pass the cap); false when refused.
    func insertChallenge(_ challenge: Challenge, maxOpenForUser: Int?) async throws -> Bool
    /// The challenge with this id in this tenant.
    func challenge(tenantID: String, id: String) async throws -> Challenge?
    /// The newest open push challenge of `userID` that `authenticatorID` may answer.
    func pendingPushChallenge(tenantID: String, userID: String, authenticatorID: String, now: Int64) async throws -> Challenge?
    /// Records a device's answer, once, in one transaction: moves the challenge from an open state in `from` to
    /// `approved` or `denied` (only while unexpired), sets its action's state and verification method, and stamps
    /// the authenticator's last verification. Returns the updated challenge, or nil when it was not open.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64
    ) async throws -> Challenge?

    /// Claims an open QR challenge for `authenticator`, once: moves it from `pending` to `claimed` while unexpired
    /// and unclaimed. For an anonymous challenge (no user yet) it binds the authenticator's user and records
    /// `anonymousAction` (with that user) as its action in the same transaction. Returns the claimed challenge, or nil
    /// when it was not open (someone else won, or it expired).
    func claimChallenge(
        tenantID: String, id: String, authenticator: Authenticator, anonymousAction: Action?, now: Int64
    ) async throws -> Challenge?

    // MARK: Webhook outbox
    /// Events due at `now`, oldest first, claimed for the caller: a store shared by several instances leases them
    /// (no other instance gets them until the lease runs out or the outcome is recorded), so each is delivered by
    /// one instance.
    func dueWebhookEvents(now: Int64, limit: Int) async throws -> [WebhookEvent]
    /// Marks an event delivered.
    func markWebhookDelivered(id: String, at: Int64) async throws
    /// Records a failed attempt: retry at `nextAttemptAt`, or give up when it is nil.
    func markWebhookAttemptFailed(id: String, attempts: Int, nextAttemptAt: Int64?, error: String, at: Int64) async throws

    /// Deletes what can no longer matter: challenges expired before `challengesBefore`, expired nonces, and outbox
    /// events delivered or given up before `eventsBefore`. Returns how many rows went.
    func sweep(now: Int64, challengesBefore: Int64, eventsBefore: Int64) async throws -> Int

    /// Throws unless the database answers a trivial query and accepts a trivial write.
    func healthCheck() async throws

    /// What kind of database this is (`sqlite`, `postgresql`), for `/healthz` and logs.
    var databaseKind: String { get }

    /// Finishes pending writes and releases the database.
    func close() async
}

/// What `trackAction` did.
package struct TrackOutcome: Sendable {
    /// The action as stored.
    package var action: Action
    /// The user's authenticators when the action was recorded.
    package var authenticators: [Authenticator]
    /// False when an existing action with the same idempotency key was returned.
    package var created: Bool

    /// What a store reports after recording (or finding) `action`.
    package init(action: Action, authenticators: [Authenticator], created: Bool) {
        self.action = action
        self.authenticators = authenticators
        self.created = created
    }
}
