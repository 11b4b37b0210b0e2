import AssentCrypto
package import AssentLog
package import AssentWire
import Foundation

/// PowerAuth activations: each tenant's application and master key, creating activations, the encrypted status,
/// vault unlock, the backend's life-cycle operations and — at the heart of it — signature verification with the
/// look-ahead window, counter advance and failed-attempt counting, each as one atomic store operation.
package struct ActivationService: Sendable {
    let store: any ActivationStore
    let clock: WallClock
    let sealer: SecretSealer
    /// Where blocks and backend changes are recorded (ids and states only, never keys, counters or signatures).
    let logger: Logger?
    /// Applications by tenant id (immutable once created).
    private let applications = ApplicationCache()
    /// Counter values tried ahead of the server's (distances 0..<lookAhead).
    let lookAhead = PowerAuth.defaultLookAhead
    /// Counts verifications by result.
    let metrics: DomainMetrics?
    /// Where an activation blocked by too many failed attempts is recorded (actor `system`).
    let audit: AuditLog?

    /// A service over `store`, sealing secrets under keys derived from the 32-byte server `masterKey`. Tenant
    /// settings (the failed-attempt limit, legacy 3.0) come with the tenant each call names.
    package init(
        store: any ActivationStore, clock: WallClock, masterKey: [UInt8], logger: Logger? = nil,
        metrics: DomainMetrics? = nil, audit: AuditLog? = nil
    ) {
        self.metrics = metrics
        self.audit = audit
        self.store = store
        self.clock = clock
        self.sealer = SecretSealer(masterKey: masterKey)
        self.logger = logger
    }

    // MARK: Application

    /// The tenant's PowerAuth application, created (random key, secret and master key pair) on first use. It never
    /// changes once created, so it is cached.
    package func application(tenantID: String) async throws -> PowerAuthApplication {
        if let cached = applications.withLock({ $0[tenantID] }) { return cached }
        let application = try await loadOrCreateApplication(tenantID: tenantID)
        applications.withLock { cache in
            if cache.count >= 10_000 { cache.removeAll() }
            cache[tenantID] = application
        }
        return application
    }

    private func loadOrCreateApplication(tenantID: String) async throws -> PowerAuthApplication {
        if let existing = try await store.powerAuthApplication(tenantID: tenantID) { return existing }
        let masterKey = P256.PrivateKey()
        let candidate = PowerAuthApplication(
            tenantID: tenantID, applicationKey: Base64.encode(SecureRandom.bytes(16)),
            applicationSecret: Base64.encode(SecureRandom.bytes(16)), masterPublicKey: masterKey.publicKey.x962Uncompressed,
            sealedMasterPrivateKey: try sealer.seal(masterKey.rawRepresentation, context: Self.masterKeyContext(tenantID)),
            createdAt: clock.nowMilliseconds())
        return try await store.insertPowerAuthApplication(candidate)
    }

    static func masterKeyContext(_ tenantID: String) -> String { "powerauth master key/\(tenantID)" }
    static func masterSecretContext(_ activationID: String) -> String { "powerauth master secret/\(activationID)" }

    // MARK: Activation

    /// Creates an activation for the track token's user from the device's ECDH public key.
    package func create(tenant: Tenant, claims: TokenClaims, request: CreateActivationRequest) async throws -> CreateActivationResponse {
        guard claims.hasScope("add:authenticators") else {
            throw AssentError(.forbidden, "The token lacks the add:authenticators scope.")
        }
        guard let deviceKeyBytes = Base64.decode(request.devicePublicKey), deviceKeyBytes.count == 65,
              let deviceKey = try? P256.PublicKey(x962: deviceKeyBytes)
        else {
            throw AssentError(.invalidRequest, "devicePublicKey must be Base64 of a 65-byte uncompressed P-256 point.")
        }
        let application = try await application(tenantID: tenant.id)
        let masterKey = try P256.PrivateKey(
            rawRepresentation: sealer.open(application.sealedMasterPrivateKey, context: Self.masterKeyContext(tenant.id)))
        let id = UUID().uuidString.lowercased()
        // The per-activation server key lives only for this ECDH; the master secret is what gets stored (sealed).
        let serverKey = P256.PrivateKey()
        let masterSecret = try PowerAuth.masterSecret(privateKey: serverKey, publicKey: deviceKey)
        let counterData = SecureRandom.bytes(16)
        let fingerprint = PowerAuthFingerprint.compute(devicePublicKey: deviceKey, activationID: id, serverPublicKey: serverKey.publicKey)
        let now = clock.nowMilliseconds()
        let status: ActivationStatus = tenant.settings.requireActivationCommit ? .pendingCommit : .active
        let record = ActivationRecord(
            id: id, tenantID: tenant.id, userID: claims.sub, name: request.activationName, status: status,
            devicePublicKey: deviceKey.x962Uncompressed, serverPublicKey: serverKey.publicKey.x962Uncompressed,
            sealedMasterSecret: try sealer.seal(masterSecret, context: Self.masterSecretContext(id)), counterData: counterData,
            fingerprint: fingerprint, enrolmentKey: claims.idk, createdAt: now, updatedAt: now)
        do {
            try await store.insertActivation(record)
        } catch is EnrolmentTokenUsed {
            throw AssentError.enrolmentTokenUsed()
        } catch let error as StoreError where error.code == .constraintViolation {
            // The unique enrolment key behind the rule above.
            throw AssentError.enrolmentTokenUsed()
        }
        let serverPublic = Base64.encode(serverKey.publicKey.x962Uncompressed)
        let ctr = Base64.encode(counterData)
        let message = PowerAuthActivationMessage.signedMessage(
            activationId: id, devicePublicKey: request.devicePublicKey, serverPublicKey: serverPublic, ctrData: ctr,
            applicationKey: application.applicationKey, applicationSecret: application.applicationSecret)
        return CreateActivationResponse(
            activationId: id, serverPublicKey: serverPublic, ctrData: ctr,
            activationSignature: Base64.encode(try masterKey.signature(for: message)), activationFingerprint: fingerprint,
            applicationKey: application.applicationKey, applicationSecret: application.applicationSecret,
            activationStatus: status.rawValue)
    }

    /// The derived keys of an activation (from its sealed master secret).
    func keys(of activation: ActivationRecord) throws -> PowerAuthDerivedKeys {
        try PowerAuthDerivedKeys(
            masterSecret: sealer.open(activation.sealedMasterSecret, context: Self.masterSecretContext(activation.id)))
    }

    /// The encrypted status blob of the tenant's activation `activationID` for the device's 16-byte `challenge`.
    /// Another tenant's activation is as unknown as one that does not exist (`404 activation_not_found`).
    package func status(tenant: Tenant, activationID: String, challenge: String) async throws -> ActivationStatusResponse {
        guard let challengeBytes = Base64.decode(challenge), challengeBytes.count == 16 else {
            throw AssentError(.invalidRequest, "challenge must be Base64 of 16 bytes.")
        }
        guard let activation = try await store.activation(id: activationID.lowercased()), activation.tenantID == tenant.id else {
            throw AssentError(.activationNotFound, "No such activation.")
        }
        let maxFailed = tenant.settings.maxFailedAttempts
        let transport = try keys(of: activation).transport
        let status = PowerAuthActivationStatus(
            status: activation.status.code, counterByte: UInt8(truncatingIfNeeded: activation.counter),
            failedAttempts: UInt8(clamping: activation.failedAttempts), maxFailedAttempts: UInt8(clamping: maxFailed),
            lookAhead: UInt8(lookAhead),
            counterDataHash: try PowerAuthStatusBlob.counterDataHash(transportKey: transport, counterData: activation.counterData))
        let nonce = SecureRandom.bytes(16)
        let blob = try PowerAuthStatusBlob.encrypt(status, transportKey: transport, challenge: challengeBytes, nonce: nonce)
        return ActivationStatusResponse(encryptedStatusBlob: Base64.encode(blob), nonce: Base64.encode(nonce))
    }

    /// Vault unlock: after a valid `possession_knowledge` (or `possession_knowledge_biometry`) signature over the
    /// request by an activation of `tenant`, the vault key encrypted under the transport key.
    package func vaultUnlock(tenant: Tenant, header value: String?, body: [UInt8]) async throws -> VaultUnlockResponse {
        let header = try Self.parse(value)
        guard header.signatureType == .possessionKnowledge || header.signatureType == .possessionKnowledgeBiometry else {
            throw AssentError(.factorRequired, "Vault unlock needs a possession_knowledge signature.")
        }
        let verified = try await verifyClient(
            tenant: tenant, method: "POST", uriID: PowerAuthURI.vaultUnlock, body: body, header: header)
        let keys = try keys(of: verified)
        let encrypted = try AES.CBC.encrypt(keys.vault, key: keys.transport, iv: [UInt8](repeating: 0, count: 16), padding: true)
        return VaultUnlockResponse(encryptedVaultEncryptionKey: Base64.encode(encrypted))
    }

    /// Verifies the signature a device sent to a client endpoint (vault unlock, an approval under a factor policy)
    /// and returns its activation, or throws `401 invalid_signature`. This is the one place where a failed client
    /// verification is decided: every client endpoint that checks a PowerAuth signature comes through here, and
    /// every refusal it throws is a failed client verification of `header.activationID` (of which only a
    /// ``SignatureVerification/Failure/counted`` one spent one of the activation's attempts). When `userID` is
    /// given, an activation of another user is refused before anything is verified or counted.
    func verifyClient(
        tenant: Tenant, userID: String? = nil, method: String, uriID: String, body: [UInt8], header: PowerAuthAuthorizationHeader
    ) async throws -> ActivationRecord {
        if let userID {
            guard let activation = try await store.activation(id: header.activationID), activation.tenantID == tenant.id,
                  activation.userID == userID
            else { throw AssentError(.invalidSignature, "The signature's activation does not belong to this user.") }
        }
        let result = try await verify(
            tenantID: tenant.id, settings: tenant.settings, method: method, uriID: uriID, body: body, header: header)
        guard result.valid, let activation = result.activation else { throw Self.refusal(result) }
        return activation
    }

    static func parse(_ value: String?) throws -> PowerAuthAuthorizationHeader {
        guard let value, !value.isEmpty else {
            throw AssentError(.invalidSignature, "The \(PowerAuthAuthorizationHeader.name) header is required.")
        }
        do {
            return try PowerAuthAuthorizationHeader(parsing: value)
        } catch {
            throw AssentError(.invalidSignature, "The \(PowerAuthAuthorizationHeader.name) header is malformed: \(error.reason).")
        }
    }

    /// The error a device sees for a signature that did not verify.
    static func refusal(_ result: SignatureVerification) -> AssentError {
        switch (result.failure, result.status) {
        case (.legacyVersionRefused, _):
            return AssentError(.invalidSignature, "This tenant does not accept pa_version 3.0 signatures.")
        case (_, .active):
            return AssentError(.invalidSignature, "The signature does not verify; \(result.remainingAttempts) attempts remain.")
        case (_, .blocked):
            return AssentError(.invalidSignature, "The activation is blocked.")
        default:
            return AssentError(.invalidSignature, "The activation is not active.")
        }
    }

    // MARK: Verification

    /// Verifies a signature made by an activation of tenant `tenantID` over (`method`, `uriID`, `body`): PowerAuth's
    /// look-ahead over `lookAhead` counter values, then — in one atomic store operation — the counter advance past the
    /// match, or, when only the possession component verified, a failed attempt and the block at the tenant's limit.
    ///
    /// A failure counts only when the possession component verified (``PowerAuthSignatureMatch/Extent/possessionOnly``):
    /// then the device itself signed this very request with a wrong PIN or biometry key, and the counter moves past
    /// the value it used, so a replay of it cannot count again. Anything else — a made-up or replayed signature, another
    /// application key, a refused `pa_version` 3.0 — changes nothing: strangers cannot spend an activation's attempts.
    ///
    /// The HMAC work runs before the store operation against the counter read just before; inside the operation
    /// it is reused when the counter is unchanged and redone when a concurrent request moved it, so the outcome is
    /// exactly that of verifying inside the transaction.
    package func verify(
        tenantID: String, settings: TenantSettings, method: String, uriID: String, body: [UInt8],
        header: PowerAuthAuthorizationHeader
    ) async throws -> SignatureVerification {
        let result = try await verifyOnce(
            tenantID: tenantID, settings: settings, method: method, uriID: uriID, body: body, header: header)
        if let metrics {
            metrics.powerAuthVerification(result.valid ? .valid : result.status == .blocked ? .blocked : .invalid)
        }
        return result
    }

    private func verifyOnce(
        tenantID: String, settings: TenantSettings, method: String, uriID: String, body: [UInt8],
        header: PowerAuthAuthorizationHeader
    ) async throws -> SignatureVerification {
        let type = header.signatureType
        let maxFailed = settings.maxFailedAttempts
        func verification(
            _ failure: SignatureVerification.Failure?, _ activation: ActivationRecord?, distance: Int? = nil
        ) -> SignatureVerification {
            let remaining = activation?.status == .active ? max(0, maxFailed - (activation?.failedAttempts ?? 0)) : 0
            return SignatureVerification(failure: failure, activationID: header.activationID, activation: activation,
                                         signatureType: type, remainingAttempts: remaining, distance: distance)
        }
        guard let snapshot = try await store.activation(id: header.activationID), snapshot.tenantID == tenantID else {
            return verification(.unknownActivation, nil)
        }
        if case .decimal = header.signatureFormat, !settings.allowLegacyPowerAuth30 {
            return verification(.legacyVersionRefused, snapshot)
        }
        let application = try await application(tenantID: tenantID)
        guard ConstantTime.equals(Base64.decode(header.applicationKey) ?? [], Base64.decode(application.applicationKey) ?? [0])
        else { return verification(.wrongApplicationKey, snapshot) }
        let keys = try keys(of: snapshot).signatureKeys
        let data = PowerAuthRequestData.normalized(
            method: method, uriID: uriID, nonce: header.nonceBytes, body: body, applicationSecret: application.applicationSecret)
        let signature = header.signature
        let format = header.signatureFormat
        let lookAhead = self.lookAhead
        let now = clock.nowMilliseconds()
        @Sendable func search(_ counterData: [UInt8]) throws -> PowerAuthSignatureMatch? {
            try PowerAuthSignature.match(
                signature, type: type, keys: keys, counterData: counterData, data: data, format: format, lookAhead: lookAhead)
        }
        let searched = snapshot.status == .active
        let precomputed = searched ? try search(snapshot.counterData) : nil
        let snapshotCounter = snapshot.counterData

        let outcome = try await store.updateActivation(id: snapshot.id) {
            record -> (SignatureVerification.Failure?, Int?, ActivationRecord) in
            // Reuse the search when it ran against this very counter; redo it when a concurrent request moved the
            // counter in between, or when the activation was not ACTIVE at first (unblocked in between), so a valid
            // signature is never refused for want of a search.
            let stale = !searched || record.counterData != snapshotCounter
            let match = record.status == .active && stale ? try search(record.counterData) : precomputed
            let (failure, distance) = Self.apply(to: &record, type: type, maxFailed: maxFailed, now: now, match: match)
            return (failure, distance, record)
        }
        guard let (failure, distance, after) = outcome else { return verification(.unknownActivation, nil) }
        if after.status == .blocked, after.blockedReason == .maxFailedAttempts, after.updatedAt == now,
           snapshot.status == .active {
            logger?.warning("activation blocked", [
                "tenantId": .string(after.tenantID), "activationId": .string(after.id), "userId": .string(after.userID),
                "reason": .string(ActivationBlockedReason.maxFailedAttempts.rawValue)])
            await recordBlock(after)
        }
        return verification(failure, after, distance: distance)
    }

    /// Records an activation this verification blocked for too many failed attempts. The block has committed; an
    /// audit write that fails is logged and does not turn the verification's answer into an error.
    private func recordBlock(_ activation: ActivationRecord) async {
        guard let audit else { return }
        do {
            try await audit.record(
                tenantID: activation.tenantID, .activationBlocked, actor: "system", subject: activation.id,
                details: [
                    "userId": activation.userID, "reason": ActivationBlockedReason.maxFailedAttempts.rawValue,
                    "failedAttempts": String(activation.failedAttempts),
                ])
        } catch {
            logger?.error("audit entry not recorded", [
                "tenantId": .string(activation.tenantID), "kind": .string(AuditKind.activationBlocked.rawValue),
                "subject": .string(activation.id), "error": .string(String(describing: error)),
            ])
        }
    }

    /// PowerAuth's state rules for one verification, applied to the record read inside the store operation: only an
    /// ACTIVE activation verifies; one at its failure limit is blocked first; a full match advances the counter past
    /// it (and resets failures unless the type is `possession`); a possession-only match advances the counter past it
    /// too, counts a failure and blocks at the limit; no match changes nothing.
    static func apply(
        to record: inout ActivationRecord, type: PowerAuthSignatureType, maxFailed: Int, now: Int64,
        match: PowerAuthSignatureMatch?
    ) -> (SignatureVerification.Failure?, Int?) {
        guard record.status == .active else { return (.notActive, nil) }
        if record.failedAttempts >= maxFailed {
            record.status = .blocked
            record.blockedReason = .maxFailedAttempts
            record.updatedAt = now
            return (.notActive, nil)
        }
        guard let match else { return (.noMatch, nil) }
        record.counterData = match.nextCounterData
        record.counter += Int64(match.distance + 1)
        record.updatedAt = now
        switch match.extent {
        case .allFactors:
            if type != .possession { record.failedAttempts = 0 }
            record.lastUsedAt = now
            return (nil, match.distance)
        case .possessionOnly:
            record.failedAttempts += 1
            if record.failedAttempts >= maxFailed {
                record.status = .blocked
                record.blockedReason = .maxFailedAttempts
            }
            return (.counted, nil)
        }
    }

    /// Checks the approval-factor policy for an approval of `challenge` by `userID`: when the tenant requires a factor
    /// for it (``TenantSettings/approvalFactor(for:)``), the request must carry an `X-PowerAuth-Authorization`
    /// header of an ACTIVE activation of that user, with at least those factors, signed over (`POST`, `uriID`,
    /// `body`). Consumes the counter value; throws when refused.
    func requireApprovalFactor(tenant: Tenant, challenge: Challenge, userID: String, proof: ApprovalProof) async throws {
        guard let required = tenant.settings.approvalFactor(for: challenge) else { return }
        guard let value = proof.header, !value.isEmpty else {
            throw AssentError(.factorRequired, "This tenant requires approvals signed with \(required.rawValue) (\(PowerAuthAuthorizationHeader.name)).")
        }
        let header = try Self.parse(value)
        guard header.signatureType.satisfies(required) else {
            throw AssentError(.factorRequired, "This tenant requires approvals signed with at least \(required.rawValue).")
        }
        _ = try await verifyClient(
            tenant: tenant, userID: userID, method: "POST", uriID: proof.uriID, body: proof.body, header: header)
    }

    // MARK: Backend operations

    /// The tenant's activation with this id.
    package func activation(tenantID: String, id: String) async throws -> ActivationRecord {
        guard let activation = try await store.activation(id: id.lowercased()), activation.tenantID == tenantID else {
            throw AssentError(.activationNotFound, "No such activation.")
        }
        return activation
    }

    /// A user's activations.
    package func activations(tenantID: String, userID: String) async throws -> [ActivationRecord] {
        try await store.activations(tenantID: tenantID, userID: userID)
    }

    /// A backend change of state.
    package enum Change: String, Sendable {
        case commit, block, unblock, remove
    }

    /// Applies a backend change atomically: commit (PENDING_COMMIT → ACTIVE), block (ACTIVE → BLOCKED), unblock
    /// (BLOCKED → ACTIVE, failures reset), remove (any → REMOVED).
    package func change(tenantID: String, id: String, _ change: Change) async throws -> ActivationRecord {
        _ = try await activation(tenantID: tenantID, id: id)
        let now = clock.nowMilliseconds()
        let result = try await store.updateActivation(id: id.lowercased()) { record -> ActivationRecord? in
            switch (change, record.status) {
            case (.commit, .pendingCommit):
                record.status = .active
            case (.block, .active):
                record.status = .blocked
                record.blockedReason = .blockedByBackend
            case (.unblock, .blocked):
                record.status = .active
                record.blockedReason = nil
                record.failedAttempts = 0
            case (.remove, let status) where status != .removed:
                record.status = .removed
                record.blockedReason = nil
            default:
                return nil
            }
            record.updatedAt = now
            return record
        }
        guard let outcome = result else { throw AssentError(.activationNotFound, "No such activation.") }
        guard let changed = outcome else {
            throw AssentError(.invalidState, "The activation cannot \(change.rawValue) from its current state.")
        }
        logger?.info("activation changed by the backend", [
            "tenantId": .string(tenantID), "activationId": .string(changed.id), "change": .string(change.rawValue),
            "status": .string(changed.status.rawValue)])
        return changed
    }
}
