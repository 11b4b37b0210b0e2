import AssentCrypto
package import AssentLog

/// PowerAuth activations: each tenant's application and master key, creating activations, the encrypted status,
/// vault unlock, the backend's life-cycle operations and — at the heart of it — signature verification with the
/// look-ahead window, counter advance and failed-attempt counting, each as one atomic store operation.
///
/// This file holds the service, the tenant's application and the sealed keys; each concern has a file of its own:
/// creation (`+Creation`), the encrypted status (`+Status`), vault unlock (`+VaultUnlock`), verification (`+Verification`,
/// with PowerAuth's state rules on the record in `ActivationRecord+Verification`), the client endpoints' signatures
/// (`+ClientSignatures`) and the backend's changes (`+BackendChanges`).
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
    /// Where backend changes and an activation blocked by too many failed attempts are recorded, in the change's
    /// transaction (nil: nowhere, as in the CLI's tools).
    let audit: AuditLog?
    /// Applies the tenant's attestation policy to a new activation (nil: none is looked at, as in the CLI's tools,
    /// which create no activations).
    let attestation: EnrolmentAttestation?

    /// A service over `store`, sealing secrets under keys derived from the 32-byte server `masterKey`. Tenant
    /// settings (the failed-attempt limit, legacy 3.0) come with the tenant each call names; `attestation` checks
    /// a new activation's App Attest attestation by the tenant's policy.
    package init(
        store: any ActivationStore, clock: WallClock, masterKey: [UInt8], logger: Logger? = nil,
        metrics: DomainMetrics? = nil, audit: AuditLog? = nil, attestation: EnrolmentAttestation? = nil
    ) {
        self.attestation = attestation
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

    /// The derived keys of an activation (from its sealed master secret).
    func keys(of activation: ActivationRecord) throws -> PowerAuthDerivedKeys {
        try PowerAuthDerivedKeys(
            masterSecret: sealer.open(activation.sealedMasterSecret, context: Self.masterSecretContext(activation.id)))
    }
}
