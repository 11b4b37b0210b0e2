import AssentCrypto
import AssentWire

/// One kind of device credential's key (push or QR code) and the calls both kinds make the same way: enrolling and
/// reading the credential, loading the key, signing, removing the credential, and answering a challenge. The SDK
/// enrols its credentials `bound`
/// (``AssentWire/SignatureScheme/bound``), so everything it signs is one of Assent's bound messages, which name their
/// purpose and the credential: its id, which the enrolment answer and every `GET` of the credential give and the device
/// remembers with the key (``CredentialIDMemory``), so a signed call costs no extra round trip (see
/// ``withCredentialID(of:retry:_:)``).
struct CredentialKey: Sendable {
    /// The client API, key store, clock, device, cached token, user-authentication gate and PowerAuth of the
    /// namespace the credential belongs to.
    let context: NamespaceContext
    /// The key's name in the ``KeyStore``.
    let name: String
    /// Where the credential is enrolled, e.g. ``Endpoint/addPushCredential``.
    let addEndpoint: Endpoint
    /// Where the credential is read, e.g. ``Endpoint/getPushCredential``.
    let getEndpoint: Endpoint
    /// Where the credential is removed, e.g. ``Endpoint/removePushCredential``.
    let removeEndpoint: Endpoint
    /// Where a challenge is answered, e.g. ``Endpoint/updatePushChallenge``.
    let answerEndpoint: Endpoint
    /// The credential's kind as the removal message names it (`PUSH` or `DEVICE`).
    let method: VerificationMethod

    /// What the device remembers of the credential's id.
    var memory: CredentialIDMemory { CredentialIDMemory(keyStore: context.keyStore, name: name) }

    /// Enrols the credential: creates the key with `policy` (or reuses the one on the device, with the policy it was
    /// made with), registers its public key with `token` (the cached token when nil), with a device attestation of it
    /// when an ``Attester`` is configured, and remembers the id the server gives it.
    func add(token: String?, policy: KeyAccessPolicy, pushToken: String? = nil) async -> AssentResponse<AppCredential> {
        await .run { () async throws(ClientFailure) -> AppCredential? in
            guard let token = context.tokens.resolve(token) else { throw .tokenNotSet }
            let key = try await loadOrCreate(policy)
            var request = Self.addRequest(key, device: context.device, pushToken: pushToken)
            request.attestation = try await context.attestation.statement(token: token, publicKey: request.publicKey)
            let response = try await context.api.send(
                addEndpoint, authorization: .bearer(token), json: request, as: AddCredentialResponse.self)
            await memory.remember(response.userAuthenticatorId, for: key)
            return AppCredential(response)
        }
    }

    /// The credential as the server knows it, or `credential_not_found` when the device holds no key.
    /// Where this credential's key lives, or nil when the device holds none (or it cannot be read).
    func protection() async -> KeyProtection? {
        try? await context.keyStore.loadKey(named: name)?.protection
    }

    func get() async -> AssentResponse<AppCredential> {
        await .run { () async throws(ClientFailure) -> AppCredential? in
            AppCredential(try await fetch(try await require()))
        }
    }

    /// Asks the server for the id it knows the credential by (`GET` of the credential) and remembers it.
    func fetchCredentialID(of key: any SigningKey) async throws(ClientFailure) -> String {
        try await fetch(key).userAuthenticatorId
    }

    /// `GET` of the credential; the id in the answer is remembered.
    private func fetch(_ key: any SigningKey) async throws(ClientFailure) -> CredentialResponse {
        let response = try await context.api.send(getEndpoint, publicKey: Self.publicKey(key), as: CredentialResponse.self)
        await memory.remember(response.userAuthenticatorId, for: key)
        return response
    }

    /// Runs the signed `call` with the credential's id, which every bound message names.
    ///
    /// The remembered id is used as is, with no request; a key without one (enrolled before ids were kept, or whose
    /// id could not be stored) costs one `GET`, after which the id is remembered. When the server refuses a call made
    /// with a remembered id as `invalid_signature` or `invalid_credential` (say the credential was removed and the
    /// key enrolled again under a new id), the id is forgotten and, with `retry`, fetched once; when the server
    /// names another id, `call` runs once more with it, and whatever that answers is the answer. A fetch that fails,
    /// or names the same id, leaves the first refusal as the answer. Other errors are never retried.
    ///
    /// `retry` is false for calls that also carry a PowerAuth factor signature: the SDK cannot tell which of the two
    /// signatures the server refused, and a factor signature is never sent again after a 401 (a second attempt could
    /// count against the factor's failed-attempt limit).
    func withCredentialID<T>(
        of key: any SigningKey, retry: Bool = true, _ call: (String) async throws(ClientFailure) -> T
    ) async throws(ClientFailure) -> T {
        guard let remembered = await memory.recall(for: key) else {
            return try await call(try await fetchCredentialID(of: key))
        }
        do {
            return try await call(remembered)
        } catch {
            guard error.refusesCredential else { throw error }
            await memory.forget(for: key)
            guard retry else { throw error }
            guard let fresh = try? await fetchCredentialID(of: key), fresh != remembered else { throw error }
            return try await call(fresh)
        }
    }

    /// The key, or nil when this device holds none.
    func load() async throws(ClientFailure) -> (any SigningKey)? {
        do {
            return try await context.keyStore.loadKey(named: name)
        } catch {
            throw ClientFailure("The key store could not read the credential's key: \(KeyStoreError.text(error))", AssentErrorCode.keyStoreError)
        }
    }

    /// The key, or `credential_not_found`.
    func require() async throws(ClientFailure) -> any SigningKey {
        guard let key = try await load() else { throw .credentialNotFound }
        return key
    }

    /// Returns when the key may be used: at once when its policy needs no user authentication or one is still valid,
    /// otherwise after a successful prompt.
    func authorize(_ key: any SigningKey, prompt: AuthenticationPrompt = .default) async throws(ClientFailure) {
        try await context.gate.authorize(key.accessPolicy, prompt: prompt)
    }

    /// A signer for one answer (see ``CredentialSigner``).
    func startSigning() async -> AssentResponse<CredentialSigner> {
        await .run { () async throws(ClientFailure) -> CredentialSigner? in
            CredentialSigner(keyName: name, key: try await require(), gate: context.gate)
        }
    }

    /// Creates the key with `policy`, or reuses the one on the device (with the policy recorded when it was made).
    private func loadOrCreate(_ policy: KeyAccessPolicy) async throws(ClientFailure) -> any SigningKey {
        if let existing = try await load() { return existing }
        do {
            return try await context.keyStore.createKey(named: name, accessPolicy: policy)
        } catch {
            throw ClientFailure("Failed to create a key pair: \(KeyStoreError.text(error))", AssentErrorCode.createKeyPairFailed)
        }
    }

    /// The enrolment request for `key`, with its access policy.
    private static func addRequest(_ key: any SigningKey, device: DeviceInfo, pushToken: String?) -> AddCredentialRequest {
        let policy = key.accessPolicy
        return AddCredentialRequest(
            publicKey: publicKey(key), deviceName: device.name, devicePlatform: device.platform, pushToken: pushToken,
            userPresenceRequired: policy.userPresenceRequired,
            userAuthenticationRequired: policy.userAuthenticationRequired ? true : nil,
            timeout: policy.userAuthenticationRequired ? policy.timeout : nil,
            authorizationType: policy.userAuthenticationRequired ? policy.authorizationType.rawValue : nil,
            signatureScheme: .bound)
    }

    /// Base64 (standard, padded) of the key's SPKI DER.
    static func publicKey(_ key: any SigningKey) -> String {
        Base64.encode(key.publicKey.spkiDER)
    }

    /// Base64 (standard, padded) of the DER ECDSA-SHA256 signature over the UTF-8 of `message`.
    static func sign(_ message: String, with key: any SigningKey) async throws(ClientFailure) -> String {
        do {
            return Base64.encode(try await key.signature(for: Array(message.utf8)))
        } catch {
            throw ClientFailure("The key could not sign: \(error)", AssentErrorCode.signingFailed)
        }
    }

    /// Signs the bound removal message for the current time window, asks the server to remove the credential, then deletes the key from this device
    /// whatever the server answered. `true` when both removed it; otherwise `false` with the server's (or the key
    /// store's) error.
    func remove() async -> AssentResponse<Bool> {
        let key: any SigningKey
        do {
            key = try await require()
        } catch {
            return AssentResponse(error: error.error, errorCode: error.errorCode)
        }
        var serverFailure: ClientFailure?
        do {
            try await authorize(key)
            try await withCredentialID(of: key) { (credentialId: String) async throws(ClientFailure) in
                let message = SignedMessage.removal(credentialId: credentialId, kind: method, unixSeconds: context.clock.nowSeconds())
                let request = RemoveCredentialRequest(
                    publicKey: Self.publicKey(key), signature: try await Self.sign(message, with: key))
                _ = try await context.api.send(removeEndpoint, json: request, as: RemoveCredentialResponse.self)
            }
        } catch {
            serverFailure = error
        }
        do {
            try await context.keyStore.deleteKey(named: name)
            await memory.forget(for: key)  // a plain key store keeps the id apart from the key
        } catch {
            let local = "The key could not be deleted from this device: \(KeyStoreError.text(error))"
            let message = serverFailure.map { "\($0.error) \(local)" } ?? local
            return AssentResponse(data: false, error: message, errorCode: serverFailure?.errorCode ?? AssentErrorCode.keyStoreError)
        }
        if let serverFailure {
            return AssentResponse(data: false, error: serverFailure.error, errorCode: serverFailure.errorCode)
        }
        return AssentResponse(data: true)
    }

    /// Approves or declines a challenge with the bound signature over
    /// ``AssentWire/SignedMessage/decision(credentialId:challengeId:approved:verificationCode:)``, sent as both
    /// `signature` and `boundSignature` (the device never signs the bare challenge id).
    ///
    /// With `signer`, its key signs (once, and only after the user authenticated with it); without, the key is
    /// loaded and its policy authorized here (prompting when needed). With `authentication`, the request also carries
    /// a PowerAuth factor signature. With an ``Attester`` that makes assertions, it carries `appAttestAssertion` over
    /// SHA-256 of the decision message too.
    func answer(
        challengeId: String, approved: Bool, verificationCode: String?, reportFraud: Bool = false,
        signer: CredentialSigner? = nil, authentication: PowerAuthAuthentication? = nil
    ) async -> AssentResponse<Bool> {
        await .run { () async throws(ClientFailure) -> Bool? in
            let key: any SigningKey
            if let signer {
                key = try signer.take(for: name)
            } else {
                key = try await require()
                try await authorize(key)
            }
            try await withCredentialID(of: key, retry: authentication == nil) { (credentialId: String) async throws(ClientFailure) in
                let decision = SignedMessage.decision(
                    credentialId: credentialId, challengeId: challengeId, approved: approved,
                    verificationCode: verificationCode, reportFraud: reportFraud)
                let signature = try await Self.sign(decision, with: key)
                let request = UpdateChallengeRequest(
                    challengeId: challengeId, publicKey: Self.publicKey(key), approved: approved, signature: signature,
                    verificationCode: verificationCode, boundSignature: signature, reportFraud: reportFraud ? true : nil,
                    appAttestAssertion: try await context.attestation.assertion(decision: decision))
                if let authentication {
                    // The factor signature covers this exact request: POST, uriId = the request path, body = the bytes sent.
                    let body = try ClientAPI.encode(request)
                    _ = try await context.powerAuth.sendSigned(
                        authentication, answerEndpoint, uriId: answerEndpoint.path, body: body,
                        as: UpdateChallengeResponse.self)
                } else {
                    _ = try await context.api.send(answerEndpoint, json: request, as: UpdateChallengeResponse.self)
                }
            }
            return true
        }
    }
}
