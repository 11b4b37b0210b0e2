package import AssentWire

/// What users verify with: their authenticators, the device credentials among them (enrolment and renewal), and
/// the single-use nonces devices sign. Every method is one atomic, durable unit (see ``ServerStore``).
package protocol CredentialStore: Sendable {
    // MARK: Authenticators
    /// The user's authenticators, oldest first.
    func authenticators(tenantID: String, userID: String) async throws -> [Authenticator]
    /// Adds an authenticator (creating the user record when missing) and appends `audit`, in one transaction.
    func insertAuthenticator(_ authenticator: Authenticator, audit: AuditAppend?) async throws
    /// Deletes one authenticator of the user, queueing `events` for it and appending `audit` in the same
    /// transaction; false (and nothing appended) when it was not there.
    func deleteAuthenticator(
        tenantID: String, userID: String, id: String, audit: AuditAppend?,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool

    // MARK: Device credentials
    /// Removes the user's device credential `id` with a removal signature that is spent doing so, in one
    /// transaction: each of `signatures` (digests naming the signature, in every form it was ever recorded under) is
    /// recorded until `keepUntil` (milliseconds), and when any of them was recorded before, nothing is removed or
    /// recorded. Queues `events` for the removed credential and appends `audit` (only when it was removed).
    func removeDeviceCredential(
        tenantID: String, userID: String, id: String, spending signatures: [[UInt8]], keepUntil: Int64,
        audit: AuditAppend?, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> CredentialRemoval
    /// The credential of `method` whose public key (canonical SPKI DER) is `publicKey`.
    func authenticator(tenantID: String, method: VerificationMethod, publicKey: [UInt8]) async throws -> Authenticator?
    /// Enrols a device credential, in one transaction: inserts `candidate`, or — when the same key is already
    /// enrolled for the same user — lets `reenrol` change that record (the domain's rule, e.g.
    /// ``Authenticator/reenrol(as:)``) and stores it under its own id. Fails with `constraintViolation` when the key
    /// belongs to another user. Queues `events(stored, created)` and appends `audit(stored)` in the same transaction.
    /// The enrolment token's action (`enrolmentKey`) is marked as having enrolled this key in the same transaction;
    /// when it already enrolled another credential (another key of any kind, or a PowerAuth activation through
    /// ``ActivationStore/insertActivation(_:)``) or is gone, the enrolment fails with ``EnrolmentTokenUsed``.
    /// `reenrol` and `audit` do no I/O and may be run again by a backend that retries the transaction.
    /// An attested enrolment spends its challenge (`attestation`) in the same transaction — ``AttestationChallengeSpent``
    /// when it is no longer open for the user — and its App Attest key id must vouch for no other credential
    /// (``AttestationKeyUsed``); nothing is stored then.
    func enrollDeviceCredential(
        _ candidate: Authenticator, enrolmentKey: String, attestation: AttestationChallengeUse?,
        reenrol: @escaping @Sendable (inout Authenticator) -> Void,
        audit: @escaping @Sendable (Authenticator) -> AuditAppend?,
        events: @escaping @Sendable (Authenticator, Bool) -> [WebhookEvent]
    ) async throws -> DeviceCredentialEnrolment
    /// A device renewed its credential: stamps its last verification and, when given, sets a new push token (clearing
    /// delivery errors) and/or a new lease end — only those columns, so concurrent changes to others are kept. Queues
    /// `events(renewed)` in the same transaction; nil when the credential no longer exists.
    func renewDeviceCredential(
        tenantID: String, id: String, pushToken: String?, expiresAt: Int64?, at: Int64,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Authenticator?

    // MARK: Nonces
    /// Records `nonce` (with its `usedAt`) as spent: true for the first caller, false when a nonce with its id was
    /// already spent (from any instance). Kept until it expires (the sweep deletes it then; it is refused by its
    /// MAC's time after that).
    func spendNonce(_ nonce: Nonce) async throws -> Bool
}
