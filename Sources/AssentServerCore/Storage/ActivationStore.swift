/// Where PowerAuth applications and activations live. Every method is one atomic, durable unit (see ``ServerStore``).
///
/// The one method with logic inside is ``updateActivation(id:_:)``: it reads the row, runs the caller's closure on
/// it and writes the result back, all in one transaction that no other writer of that row can interleave with
/// (SQLite: the single writer's transaction; PostgreSQL: `SELECT … FOR UPDATE` then `UPDATE` in one transaction).
/// Signature verification runs through it, which is what makes "two requests can never consume the same counter
/// value" hold.
package protocol ActivationStore: Sendable {
    /// The tenant's PowerAuth application.
    func powerAuthApplication(tenantID: String) async throws -> PowerAuthApplication?
    /// Stores `application` unless the tenant already has one; returns the one stored (the existing one when two
    /// creators race).
    func insertPowerAuthApplication(_ application: PowerAuthApplication) async throws -> PowerAuthApplication

    /// Adds an activation, creating its user record when missing, and marks the enrolment token's action
    /// (``ActivationRecord/enrolmentKey``) as having enrolled it, in one transaction — the same mark
    /// ``CredentialStore/enrollDeviceCredential(_:enrolmentKey:reenrol:events:)`` sets, so one token enrols one
    /// credential of any kind. Fails with ``EnrolmentTokenUsed`` when that action is gone or already enrolled a
    /// credential (a push or QR key, or another activation), and with `StoreError.constraintViolation` when the id
    /// exists. With `attestation`, the same transaction spends that attestation challenge (``AttestationChallengeSpent``
    /// when it is spent, expired or not the user's) and checks that the activation's App Attest key id vouches for no
    /// other credential of any kind (``AttestationKeyUsed``).
    func insertActivation(_ activation: ActivationRecord, attestation: AttestationChallengeUse?) async throws
    /// The activation with this id (any tenant).
    func activation(id: String) async throws -> ActivationRecord?
    /// A user's activations, oldest first.
    func activations(tenantID: String, userID: String) async throws -> [ActivationRecord]
    /// Atomically reads the activation, lets `body` change it and decide the result, and stores the changed record
    /// (only when `body` changed it), appending `audit(before, after)` of a changed record in the same transaction.
    /// Nil when there is no such activation. When `body` throws nothing is written. `body` and `audit` do no I/O
    /// and may be run again by a backend that retries the transaction (e.g. after a PostgreSQL serialization
    /// failure); only the last run's record is stored.
    func updateActivation<T: Sendable>(
        id: String, audit: @escaping @Sendable (_ before: ActivationRecord, _ after: ActivationRecord) -> AuditAppend?,
        _ body: @escaping @Sendable (inout ActivationRecord) throws -> T
    ) async throws -> T?
}

extension ActivationStore {
    /// ``insertActivation(_:attestation:)`` without an attestation.
    package func insertActivation(_ activation: ActivationRecord) async throws {
        try await insertActivation(activation, attestation: nil)
    }

    /// ``updateActivation(id:audit:_:)`` recording nothing in the audit log.
    package func updateActivation<T: Sendable>(
        id: String, _ body: @escaping @Sendable (inout ActivationRecord) throws -> T
    ) async throws -> T? {
        try await updateActivation(id: id, audit: { _, _ in nil }, body)
    }
}
