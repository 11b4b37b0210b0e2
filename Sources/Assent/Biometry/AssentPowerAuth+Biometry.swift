import AssentCrypto
import AssentWire
import Foundation

/// The biometry factor, as biometry-setup.md describes it.
extension AssentPowerAuth {
    /// Biometry on the system and for this activation.
    public func getBiometricStatus() async -> BiometricStatus {
        let system = await gate.authenticator.status()
        let configured = await hasBiometryFactor()
        return BiometricStatus(
            isAuthenticationWithBiometricsAvailable: system.systemStatus == .available && configured,
            biometryType: system.biometryType, systemStatus: system.systemStatus, isBiometricFactorConfigured: configured)
    }

    /// Whether a biometric signature can be computed now (the system is available and the factor is configured).
    public func isAuthenticationWithBiometricsAvailable() async -> Bool {
        await getBiometricStatus().isAuthenticationWithBiometricsAvailable
    }

    /// Whether the activation has biometry factor data: the protected biometry key and its unlock item both exist,
    /// and the item was not invalidated by a change of the enrolled biometrics. An invalidated factor is removed here.
    public func hasBiometryFactor() async -> Bool {
        guard let data = try? await loadData(), data.biometryKey != nil,
              let item = try? await loadBiometryItem()
        else { return false }
        if await isInvalidated(item) {
            _ = try? await lock.run { () async throws(ClientFailure) -> Bool in try await dropBiometryFactor() }
            return false
        }
        return true
    }

    /// Adds the biometry factor: asks the user for biometrics (`prompt`) when
    /// ``PowerAuthConfiguration/authenticateOnBiometricKeySetup`` says so (never on iOS), unlocks the vault with a
    /// `possession_knowledge` signature (which is why the password is needed, and why a wrong one counts as a failed
    /// attempt on the server), decrypts the device private key with the vault key, re-derives the keys, and keeps the
    /// biometry key protected under a random unlock key that only a biometric authentication releases.
    ///
    /// ```swift
    /// _ = await powerAuth.addBiometryFactor(password: "1234",
    ///         prompt: AuthenticationPrompt(title: "Add biometry", message: "Allow biometry factor"))
    /// // The simplified variant, on iOS or with authenticateOnBiometricKeySetup false (no prompt is shown):
    /// _ = await powerAuth.addBiometryFactor(password: "1234")
    /// ```
    ///
    /// The key is bound to the current enrolment when
    /// ``PowerAuthConfiguration/invalidatesBiometricFactorAfterChange(platform:)`` says so for this device. After a
    /// failure, call ``fetchActivationStatus()`` to resynchronize the counter and read the remaining attempts.
    ///
    /// - Parameters:
    ///   - password: The knowledge factor, checked by the server.
    ///   - prompt: What the biometric prompt shows when setting up the key authenticates
    ///     (``AuthenticationPrompt/default`` when not given); unused otherwise.
    /// - Returns: `true`, or `biometry_not_available`, `biometry_lockout`, `user_authentication_failed`,
    ///   `invalid_signature` (wrong password, counted), `missing_activation`, `network_error`, ...
    public func addBiometryFactor(password: String, prompt: AuthenticationPrompt = .default) async -> AssentResponse<Bool> {
        await .run { () async throws(ClientFailure) -> Bool? in
            let configuration = try requireConfiguration()
            _ = try await requireData()
            let system = await gate.authenticator.status()
            switch system.systemStatus {
            case .available: break
            case .lockout: throw ClientFailure("Biometrics are locked out.", AssentErrorCode.biometryLockout)
            default:
                throw ClientFailure(
                    "Biometric authentication is not available (\(system.systemStatus.rawValue)).",
                    AssentErrorCode.biometryNotAvailable)
            }
            if configuration.authenticatesOnBiometricKeySetup(platform: platform) {
                _ = try await gate.authenticate(prompt: prompt, allowing: .biometric)
            }
            let fingerprint = await gate.authenticator.enrolmentFingerprint()
            let body = Data(#"{"reason":"ADD_BIOMETRY"}"#.utf8)
            let unlocked: VaultUnlockResponse
            do throws(ClientFailure) {
                unlocked = try await sendSigned(
                    .password(password), .unlockVault, uriId: PowerAuthURI.vaultUnlock, body: body,
                    as: VaultUnlockResponse.self)
            } catch {
                throw ClientFailure(
                    error.error + " Call fetchActivationStatus() to resynchronize and read the remaining attempts.",
                    error.errorCode)
            }
            return try await lock.run { () async throws(ClientFailure) -> Bool in
                var data = try await requireData()
                let deviceRelated = try await deviceRelatedKey(create: false)
                let transport = try Self.unwrap(try Self.decode(data.transportKey, "transport key"), key: deviceRelated)
                let vault = try Self.crypto("Cannot decrypt the vault key") {
                    try AES.CBC.decrypt(
                        try Self.decode(unlocked.encryptedVaultEncryptionKey, "vault key"), key: transport, iv: Self.zeroIV,
                        padding: true)
                }
                let keys = try Self.crypto("Cannot re-derive the keys from the device private key") {
                    let scalar = try AES.CBC.decrypt(
                        try Self.decode(data.devicePrivateKey, "device private key"), key: vault, iv: Self.zeroIV, padding: true)
                    let deviceKey = try P256.PrivateKey(rawRepresentation: scalar)
                    let serverKey = try P256.PublicKey(x962: try Self.decode(data.serverPublicKey, "server public key"))
                    return try PowerAuthDerivedKeys(masterSecret: try PowerAuth.masterSecret(privateKey: deviceKey, publicKey: serverKey))
                }
                guard ConstantTime.equals(keys.vault, vault) else {
                    throw ClientFailure("The vault key does not match the activation.", AssentErrorCode.activationDataInvalid)
                }
                let unlockKey = SecureRandom.bytes(16)
                try await deleteSecret(Self.biometrySecretName)
                try await saveBiometryItem(BiometryUnlockItem(
                    unlockKey: Base64.encode(unlockKey), enrolmentFingerprint: fingerprint,
                    invalidateAfterChange: configuration.invalidatesBiometricFactorAfterChange(platform: platform)))
                data.biometryKey = Base64.encode(try Self.wrap(keys.biometry, key: unlockKey))
                try await save(data)
                return true
            }
        }
    }

    /// Removes the biometry factor from this device (the protected key and its unlock item); no server call.
    ///
    /// - Returns: `true` when there was one to remove.
    public func removeBiometryFactor() async -> AssentResponse<Bool> {
        await .run { () async throws(ClientFailure) -> Bool? in
            try await lock.run { () async throws(ClientFailure) -> Bool in
                try await dropBiometryFactor()
            }
        }
    }

    /// Authenticates with biometrics once and runs `body` with a reusable authentication: every signature `body`
    /// computes with it uses the one unlocked biometry key, which stays in memory for
    /// ``PowerAuthConfiguration/biometryKeyKeepAliveMilliseconds`` (10 s) after its **last** use and is then released
    /// (the next use prompts again). The key is released when `body` returns. Do not send another request signed with
    /// it after one fails with 401 (the object is then invalidated).
    ///
    /// - Parameters:
    ///   - authentication: A biometric authentication (``PowerAuthAuthentication/biometry(prompt:)``), whose prompt
    ///     is shown.
    ///   - body: The signatures to compute.
    /// - Returns: What `body` returned, or the error of the biometric authentication (nothing ran then).
    public func groupedBiometricAuthentication<T: Sendable>(
        _ authentication: PowerAuthAuthentication, _ body: (PowerAuthAuthentication) async -> T
    ) async -> AssentResponse<T> {
        let reusable = authentication.reusableCopy()
        let prepared: AssentResponse<Bool> = await .run { () async throws(ClientFailure) -> Bool? in
            guard authentication.usesBiometry else {
                throw ClientFailure(
                    "Grouped biometric authentication needs a biometric authentication object.",
                    AssentErrorCode.biometryFactorNotConfigured)
            }
            guard !authentication.isInvalidated else { throw .authenticationInvalidatedFailure }
            _ = try await biometryKey(for: reusable, data: try await requireData())
            return true
        }
        if let error = prepared.error { return AssentResponse(error: error, errorCode: prepared.errorCode) }
        let value = await body(reusable)
        reusable.release()
        return AssentResponse(data: value)
    }

    // MARK: Internals

    /// The biometry signing key for `authentication`: the reusable one within its keep-alive, else after one
    /// biometric prompt (one at a time).
    func biometryKey(for authentication: PowerAuthAuthentication, data: ActivationData) async throws(ClientFailure) -> [UInt8] {
        guard let protected = data.biometryKey, let item = try await loadBiometryItem() else {
            throw ClientFailure("The activation has no biometry factor; add it first.", AssentErrorCode.biometryFactorNotConfigured)
        }
        if await isInvalidated(item) {
            _ = try await lock.run { () async throws(ClientFailure) -> Bool in try await dropBiometryFactor() }
            throw ClientFailure(
                "The enrolled biometrics changed, which invalidated the biometry factor; add it again with the password.",
                AssentErrorCode.biometryKeyInvalidated)
        }
        let keepAlive = configuration?.biometryKeyKeepAliveMilliseconds ?? 10_000
        if let cached = authentication.reusableBiometryKey(now: clock.nowMilliseconds(), keepAlive: keepAlive) {
            return cached
        }
        _ = try await gate.authenticate(prompt: authentication.biometryPrompt ?? .default, allowing: .biometric)
        let key = try Self.unwrap(
            try Self.decode(protected, "biometry key"), key: try Self.decode(item.unlockKey, "biometry unlock key"))
        authentication.remember(biometryKey: key, now: clock.nowMilliseconds())
        return key
    }

    /// Whether `item` was invalidated by a change of the enrolled biometrics.
    func isInvalidated(_ item: BiometryUnlockItem) async -> Bool {
        guard item.invalidateAfterChange else { return false }
        return await gate.authenticator.enrolmentFingerprint() != item.enrolmentFingerprint
    }

    /// Deletes the biometry factor's data; whether there was any.
    @discardableResult
    func dropBiometryFactor() async throws(ClientFailure) -> Bool {
        let hadItem = try await loadBiometryItem() != nil
        try await deleteSecret(Self.biometrySecretName)
        guard var data = try await loadData() else { return hadItem }
        let hadKey = data.biometryKey != nil
        if hadKey {
            data.biometryKey = nil
            try await save(data)
        }
        return hadItem || hadKey
    }
}

extension ClientFailure {
    static let authenticationInvalidatedFailure = ClientFailure(
        "This authentication was refused by the server (401) and cannot be used again; create a new one.",
        AssentErrorCode.authenticationInvalidated)
}
