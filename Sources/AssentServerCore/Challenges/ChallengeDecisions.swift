import AssentCrypto
package import AssentWire

/// Records a device's answer to a push or QR challenge: checks the signatures, the device's right to answer, the
/// verification code, then compare-and-sets the challenge and its action in one transaction, and tells the event bus.
/// A fraud report ("this wasn't me") is one transaction too: the denial, its user's push lock with its timeline entry
/// and webhook, and its audit entry (actor `device`). Where the tenant requires attested approvals
/// (``ApprovalAttestation``), an answer — approval or denial — from a credential without a verified attestation is
/// refused before anything changes, and an App Attest credential's assertion counter advances in the answer's own
/// transaction.
package struct ChallengeDecisions: Sendable {
    let store: any ChallengeStore
    let clock: WallClock
    let events: ChallengeEvents
    /// Checks the tenant's approval-factor policy (PowerAuth signature) for approvals.
    let activations: ActivationService
    /// Counts push answers against push bombing and records "this wasn't me".
    let guards: PushGuards
    /// Counts approvals and denials.
    let metrics: DomainMetrics?
    /// Where fraud reports are recorded (nil: nowhere).
    let audit: AuditLog?
    /// Checks answers where the tenant requires an attested credential.
    let attestation = ApprovalAttestation()
    /// The authentication history every outcome is recorded in (nil: none kept).
    let history: SignInHistory?

    /// An answered challenge with the credential that answered it.
    package struct Answered: Sendable {
        /// The credential.
        package var authenticator: Authenticator
        /// The challenge as answered.
        package var challenge: Challenge
    }

    /// Records `authenticator`'s approval or denial of a challenge. `signature` covers the challenge id (Authsignal's
    /// message, compatible credentials only) or Assent's bound decision message, which names the purpose (`approve`
    /// or `deny`), the credential, the challenge and the verification code. `boundSignature` covers the bound message;
    /// a bound credential (or any credential of a tenant that requires it) must send it, so an on-path box that drops
    /// it and flips `approved` is refused before anything changes. A challenge is answered once; an approval needs the
    /// right verification code.
    package func answer(
        tenant: Tenant, authenticator: Authenticator, key: DeviceKey, answer: ChallengeAnswer,
        kind: Challenge.Kind, proof: ApprovalProof
    ) async throws -> Challenge {
        try await decide(
            answer, tenant: tenant, authenticator: authenticator, key: key, kind: kind, proof: proof,
            found: try await store.challenge(tenantID: tenant.id, id: answer.challengeID))
    }

    /// ``answer(tenant:authenticator:key:answer:kind:proof:)`` by the credential of `method` that `key` names, read
    /// together with the challenge (one round trip on PostgreSQL; `invalid_credential` when the key names no live
    /// credential); returns the credential with the answered challenge.
    package func answer(
        tenant: Tenant, key: DeviceKey, method: VerificationMethod, answer: ChallengeAnswer,
        kind: Challenge.Kind, proof: ApprovalProof
    ) async throws -> Answered {
        let read = try await store.credentialAndChallenge(
            tenantID: tenant.id, method: method, publicKey: key.der, challengeID: answer.challengeID)
        let authenticator = try DeviceCredentialService.live(read.authenticator, at: clock.nowMilliseconds())
        return Answered(
            authenticator: authenticator,
            challenge: try await decide(
                answer, tenant: tenant, authenticator: authenticator, key: key, kind: kind, proof: proof,
                found: read.challenge))
    }

    /// The answer, once the challenge was read (`found`, nil when there is none).
    private func decide(
        _ answer: ChallengeAnswer, tenant: Tenant, authenticator: Authenticator, key: DeviceKey,
        kind: Challenge.Kind, proof: ApprovalProof, found: Challenge?
    ) async throws -> Challenge {
        let code = answer.verificationCode.flatMap { $0.isEmpty ? nil : $0 }
        let fraud = answer.reportsFraud
        if fraud {
            guard !answer.approved, kind == .push else {
                throw AssentError(.invalidRequest, "reportFraud goes only with the denial of a push challenge.")
            }
        }
        let decision = SignedMessage.decision(
            credentialId: authenticator.id, challengeId: answer.challengeID, approved: answer.approved,
            verificationCode: code, reportFraud: fraud)
        guard key.verifies(
            answer.signature, as: authenticator.signatureScheme,
            compatible: SignedMessage.challenge(answer.challengeID), bound: decision)
        else { throw AssentError(.invalidSignature, "The signature does not verify over this answer.") }
        if let bound = answer.boundSignature {
            guard key.verifies(bound, message: decision) else {
                throw AssentError(.invalidSignature, "The bound signature does not verify over this decision.")
            }
        } else if authenticator.signatureScheme == .bound {
            throw AssentError(.invalidSignature, "This credential answers only with a bound signature over the decision.")
        } else if tenant.settings.requireBoundSignature {
            throw AssentError(.invalidSignature, "This tenant requires a bound signature over the decision.")
        }
        let now = clock.nowMilliseconds()
        guard let challenge = found, challenge.kind == kind
        else { throw AssentError(.notFound, "No such challenge.") }
        guard challenge.userID == authenticator.userID,
              challenge.targetAuthenticatorID == nil || challenge.targetAuthenticatorID == authenticator.id,
              kind != .qrCode || challenge.answeredBy == authenticator.id
        else { throw AssentError(.forbidden, "This credential may not answer this challenge.") }
        // The PowerAuth factors an approval proves, when the tenant asks for them (only then are they verified).
        var factor: String?
        if answer.approved, tenant.settings.approvalFactor(for: challenge) != nil, case .signed(let header) = proof.signature {
            factor = header.signatureType.rawValue
        }
        guard challenge.isOpen(at: now) else {
            await history?.refused(
                challenge, tenant: tenant, userID: authenticator.userID, reason: AssentError.Code.challengeClosed.wire,
                credentialID: authenticator.id, factor: factor)
            throw AssentError(.challengeClosed, "The challenge has expired or was already answered.")
        }
        // Before anything changes: an unattested credential, or a missing or bad assertion, leaves the challenge open.
        let counter: Int64?
        do {
            counter = try attestation.check(
                tenant: tenant, authenticator: authenticator, actionCode: challenge.actionCode, decision: decision,
                assertion: answer.appAttestAssertion)
        } catch let error as AssentError {
            await history?.refused(
                challenge, tenant: tenant, userID: authenticator.userID, reason: error.code.wire,
                credentialID: authenticator.id, factor: factor)
            throw error
        }
        if answer.approved {
            // Before anything changes: a refused factor leaves the challenge open.
            do {
                try await activations.requireApprovalFactor(
                    tenant: tenant, challenge: challenge, userID: authenticator.userID, proof: proof)
            } catch let error as AssentError {
                await history?.refused(
                    challenge, tenant: tenant, userID: authenticator.userID, reason: error.code.wire,
                    credentialID: authenticator.id, factor: factor)
                throw error
            }
        }
        if answer.approved, let expected = challenge.verificationCode {
            guard let code, ConstantTime.equals(Array(code.utf8), Array(expected.utf8)) else {
                // One guess only: a wrong code declines the challenge, so the code cannot be found by trying.
                if let declined = try? await record(
                    challenge, tenant: tenant, approved: false, authenticator, now, reason: "verification_code_mismatch",
                    factor: nil, appAttestCounter: counter) {
                    events.publish(declined.challenge)
                    try await guards.recordAnswer(
                        tenant: tenant, challenge: declined.challenge, approved: false, fraud: false,
                        authenticator: authenticator, read: declined.pushGuard)
                }
                throw AssentError(
                    .invalidRequest, "verificationCode does not match the code shown on the initiating page; the challenge was declined.")
            }
        }
        if fraud {
            let answered = try await reportFraud(challenge, tenant: tenant, authenticator, now, appAttestCounter: counter)
            events.publish(answered)
            return answered
        }
        let recorded = try await record(
            challenge, tenant: tenant, approved: answer.approved, authenticator, now, reason: nil, factor: factor,
            appAttestCounter: counter)
        events.publish(recorded.challenge)
        // Counted once the answer stands (a refused answer counts nothing).
        try await guards.recordAnswer(
            tenant: tenant, challenge: recorded.challenge, approved: answer.approved, fraud: false,
            authenticator: authenticator, read: recorded.pushGuard)
        return recorded.challenge
    }

    /// A recorded answer (``record(_:tenant:approved:_:_:reason:factor:appAttestCounter:)``).
    private struct Recorded: Sendable {
        /// The challenge as answered.
        var challenge: Challenge
        /// Its user's push guard, read after the answer; nil for a QR challenge.
        var pushGuard: PushGuardRead?
    }

    /// Records the answer; for a push challenge the store also reads its user's push guard after the answer (in the
    /// answer's round trip on PostgreSQL), for ``PushGuards/recordAnswer(tenant:challenge:approved:fraud:authenticator:read:)``.
    /// `appAttestCounter` (an App Attest assertion's) is stored with the answer, compare-and-set.
    private func record(
        _ challenge: Challenge, tenant: Tenant, approved: Bool, _ authenticator: Authenticator, _ now: Int64,
        reason: String?, factor: String?, appAttestCounter: Int64?
    ) async throws -> Recorded {
        let recording = history?.recording(
            challenge, tenant: tenant, userID: authenticator.userID, outcome: approved ? .approved : .declined,
            reason: reason, credentialID: authenticator.id, factor: factor, now: now)
        do {
            let outcome = try await store.answerChallenge(
                tenantID: challenge.tenantID, id: challenge.id, from: challenge.kind.answerableStates, approved: approved,
                authenticatorID: authenticator.id, verificationMethod: challenge.kind.verificationMethod, now: now,
                pushGuardOf: challenge.kind == .push ? challenge.userID : nil, appAttestCounter: appAttestCounter,
                recording: recording)
            guard let answered = outcome.challenge
            else { throw AssentError(.challengeClosed, "The challenge has expired or was already answered.") }
            metrics?.challenge(answered.kind, approved ? .approved : .denied, tenantID: answered.tenantID)
            return Recorded(challenge: answered, pushGuard: outcome.pushGuard)
        } catch let error as StoreError where error.code == .constraintViolation {
            throw AssentError(.conflict, "The action is no longer waiting for a challenge; the backend changed its state.")
        } catch is AppAttestCounterUsed {
            throw Self.counterUsed()
        }
    }

    /// Records the denial of push `challenge` as a fraud report: the answer, the user's push lock (with its timeline
    /// entry and webhook) and the `challenge.fraud_reported` audit entry, in one transaction.
    private func reportFraud(
        _ challenge: Challenge, tenant: Tenant, _ authenticator: Authenticator, _ now: Int64, appAttestCounter: Int64?
    ) async throws -> Challenge {
        guard let change = guards.fraudReport(tenant: tenant, challenge: challenge, authenticator: authenticator, now: now)
        else { throw AssentError(.invalidRequest, "reportFraud goes only with the denial of a push challenge.") }
        let entry = audit?.entry(
            tenantID: tenant.id, .fraudReported, actor: "device", subject: authenticator.userID,
            details: ["challengeId": challenge.id, "userAuthenticatorId": authenticator.id])
        let recording = history?.recording(
            challenge, tenant: tenant, userID: authenticator.userID, outcome: .declined, reason: "fraud_reported",
            credentialID: authenticator.id, factor: nil, now: now)
        do {
            guard let answered = try await store.answerChallenge(
                tenantID: challenge.tenantID, id: challenge.id, from: challenge.kind.answerableStates, approved: false,
                authenticatorID: authenticator.id, verificationMethod: challenge.kind.verificationMethod, now: now,
                changing: change, audit: entry, appAttestCounter: appAttestCounter, recording: recording)
            else { throw AssentError(.challengeClosed, "The challenge has expired or was already answered.") }
            metrics?.challenge(answered.kind, .denied, tenantID: answered.tenantID)
            return answered
        } catch let error as StoreError where error.code == .constraintViolation {
            throw AssentError(.conflict, "The action is no longer waiting for a challenge; the backend changed its state.")
        } catch is AppAttestCounterUsed {
            throw Self.counterUsed()
        }
    }

    /// An assertion whose counter another answer stored first (two answers with one counter: one wins).
    private static func counterUsed() -> AssentError {
        AssentError(.attestationInvalid, "The App Attest assertion is not valid: counter (another answer used it first).")
    }

    /// Answers recorded in `store` and announced on `events`; `activations` checks the tenant's approval factors;
    /// `guards` counts push answers; `audit` records fraud reports; `history` keeps every outcome.
    package init(
        store: any ChallengeStore,
        clock: WallClock,
        events: ChallengeEvents,
        activations: ActivationService,
        guards: PushGuards,
        metrics: DomainMetrics? = nil,
        audit: AuditLog? = nil,
        history: SignInHistory? = nil
    ) {
        self.history = history
        self.audit = audit
        self.metrics = metrics
        self.store = store
        self.clock = clock
        self.events = events
        self.activations = activations
        self.guards = guards
    }
}
