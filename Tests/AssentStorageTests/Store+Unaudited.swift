@testable import AssentServerCore
import AssentWire

// The store's changes without an audit entry, and answers without an App Attest counter or a sign-in recording, for
// store tests that exercise the change itself. Sources have no such overloads: a service passes its audit entry, its
// counter and its recording (or, visibly, nil), so none can skip one by accident.

extension TenantStore {
    /// Adds a tenant without an audit entry.
    func insertTenant(_ tenant: Tenant) async throws { try await insertTenant(tenant, audit: nil) }

    /// Replaces a tenant without an audit entry.
    func updateTenant(_ tenant: Tenant) async throws -> Bool { try await updateTenant(tenant, audit: nil) }
}

extension UserStore {
    /// ``deleteUser(tenantID:userID:audit:events:)`` recording nothing in the audit log.
    func deleteUser(
        tenantID: String, userID: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await deleteUser(tenantID: tenantID, userID: userID, audit: nil, events: events)
    }
}

extension CredentialStore {
    /// ``insertAuthenticator(_:audit:)`` recording nothing in the audit log.
    func insertAuthenticator(_ authenticator: Authenticator) async throws {
        try await insertAuthenticator(authenticator, audit: nil)
    }

    /// ``deleteAuthenticator(tenantID:userID:id:audit:events:)`` recording nothing in the audit log.
    func deleteAuthenticator(
        tenantID: String, userID: String, id: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await deleteAuthenticator(tenantID: tenantID, userID: userID, id: id, audit: nil, events: events)
    }

    /// ``removeDeviceCredential(tenantID:userID:id:spending:keepUntil:audit:events:)`` recording nothing in the audit
    /// log.
    func removeDeviceCredential(
        tenantID: String, userID: String, id: String, spending signatures: [[UInt8]], keepUntil: Int64,
        events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> CredentialRemoval {
        try await removeDeviceCredential(
            tenantID: tenantID, userID: userID, id: id, spending: signatures, keepUntil: keepUntil, audit: nil,
            events: events)
    }

    /// ``enrollDeviceCredential(_:enrolmentKey:reenrol:audit:events:)`` recording nothing in the audit log.
    func enrollDeviceCredential(
        _ candidate: Authenticator, enrolmentKey: String,
        reenrol: @escaping @Sendable (inout Authenticator) -> Void,
        events: @escaping @Sendable (Authenticator, Bool) -> [WebhookEvent]
    ) async throws -> DeviceCredentialEnrolment {
        try await enrollDeviceCredential(
            candidate, enrolmentKey: enrolmentKey, attestation: nil, reenrol: reenrol, audit: { _ in nil }, events: events)
    }
}

extension ChallengeStore {
    /// ``answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:appAttestCounter:recording:)``
    /// advancing no App Attest counter and recording no sign-in.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, pushGuardOf: String?
    ) async throws -> ChallengeAnswerOutcome {
        try await answerChallenge(
            tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
            verificationMethod: verificationMethod, now: now, pushGuardOf: pushGuardOf, appAttestCounter: nil,
            recording: nil)
    }

    /// ``answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:appAttestCounter:recording:)``
    /// advancing no App Attest counter.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, pushGuardOf: String?, recording: SignInRecording?
    ) async throws -> ChallengeAnswerOutcome {
        try await answerChallenge(
            tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
            verificationMethod: verificationMethod, now: now, pushGuardOf: pushGuardOf, appAttestCounter: nil,
            recording: recording)
    }

    /// The fraud report's answer advancing no App Attest counter.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, changing guardChange: PushGuardChange, audit: AuditAppend?,
        recording: SignInRecording?
    ) async throws -> Challenge? {
        try await answerChallenge(
            tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
            verificationMethod: verificationMethod, now: now, changing: guardChange, audit: audit, appAttestCounter: nil,
            recording: recording)
    }

    /// The fraud report's answer advancing no App Attest counter and recording no sign-in.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64, changing guardChange: PushGuardChange, audit: AuditAppend?
    ) async throws -> Challenge? {
        try await answerChallenge(
            tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
            verificationMethod: verificationMethod, now: now, changing: guardChange, audit: audit, appAttestCounter: nil,
            recording: nil)
    }

    /// ``answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:)`` reading no
    /// push guard.
    func answerChallenge(
        tenantID: String, id: String, from: [Challenge.State], approved: Bool, authenticatorID: String,
        verificationMethod: VerificationMethod, now: Int64
    ) async throws -> Challenge? {
        try await answerChallenge(
            tenantID: tenantID, id: id, from: from, approved: approved, authenticatorID: authenticatorID,
            verificationMethod: verificationMethod, now: now, pushGuardOf: nil, appAttestCounter: nil, recording: nil
        ).challenge
    }
}
