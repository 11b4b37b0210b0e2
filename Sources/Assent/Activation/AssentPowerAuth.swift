import AssentCrypto
import AssentWire
import Foundation

/// PowerAuth-style activation and multi-factor request signatures (protocol 3.3), and the biometry factor
/// (biometry-setup.md): the server can *verify* that a password or biometrics was used, not merely take the app's
/// word for it.
///
/// ```swift
/// let assent = Assent(..., userAuthenticator: authenticator,
///                     powerAuth: PowerAuthConfiguration(masterPublicKey: pinnedKey))
/// _ = await assent.powerAuth.createActivation(token: token, password: "1234")
/// _ = await assent.powerAuth.addBiometryFactor(password: "1234", prompt: AuthenticationPrompt(title: "Add biometry", message: "Allow biometry factor"))
/// let header = await assent.powerAuth.authenticationHeaderForRequestWithBody(
///     .biometry(prompt: prompt), method: "POST", uriId: "/payments", body: body)
/// ```
///
/// One activation per ``KeyStore``. Signatures are computed one at a time and the counter is saved before a header
/// is returned, whatever later happens to the request. Every call answers an ``AssentResponse``.
public final class AssentPowerAuth: Sendable {
    let api: ClientAPI
    let keyStore: any KeyStore
    let clock: AssentClock
    let gate: UserAuthenticationGate
    let tokens: TokenCache
    /// The configuration, nil when the SDK was created without one.
    public let configuration: PowerAuthConfiguration?
    /// The device's platform (``DeviceInfo/platform``), which decides the biometry defaults of ``configuration``.
    let platform: String
    /// Serializes everything that reads and writes the activation (signatures, counter synchronization).
    let lock = AsyncLock()

    init(
        api: ClientAPI, keyStore: any KeyStore, clock: AssentClock, gate: UserAuthenticationGate, tokens: TokenCache,
        configuration: PowerAuthConfiguration?, platform: String
    ) {
        self.api = api
        self.keyStore = keyStore
        self.clock = clock
        self.gate = gate
        self.tokens = tokens
        self.configuration = configuration
        self.platform = platform
    }

    // MARK: Activation

    /// Whether this device holds an activation.
    public func hasActivation() async -> Bool {
        (try? await loadData()) != nil
    }

    /// The activation's ID, if any.
    public func activationIdentifier() async -> String? {
        (try? await loadData())?.activationId
    }

    /// Activates this device: creates a P-256 key pair, sends its public key with a track token, checks the answer's
    /// signature against the pinned master public key, derives the factor keys and stores them protected (the
    /// knowledge key under `password`, which only the server can check).
    ///
    /// - Parameters:
    ///   - token: A track token (scope `add:authenticators`); the one set with ``Assent/setToken(_:)`` when nil.
    ///   - password: The user's PIN or password for the knowledge factor.
    ///   - name: A name for the activation (e.g. the device's).
    /// - Returns: The activation, or `powerauth_not_configured`, `activation_exists`, `token_not_set`,
    ///   `activation_signature_invalid`, `key_store_error`, `network_error`, the server's code.
    public func createActivation(token: String? = nil, password: String, name: String? = nil) async
        -> AssentResponse<CreatedActivation>
    {
        await .run { () async throws(ClientFailure) -> CreatedActivation? in
            let configuration = try requireConfiguration()
            guard let token = tokens.resolve(token) else { throw .tokenNotSet }
            guard let masterKeyBytes = Base64.decodeStrict(configuration.masterPublicKey),
                  let masterKey = try? P256.PublicKey(x962: masterKeyBytes)
            else {
                throw ClientFailure("The configured master public key is not Base64 SEC1 P-256.", AssentErrorCode.powerAuthNotConfigured)
            }
            return try await lock.run { () async throws(ClientFailure) -> CreatedActivation in
                guard try await loadData() == nil else {
                    throw ClientFailure("This device already has an activation; remove it first.", AssentErrorCode.activationExists)
                }
                let deviceKey = P256.PrivateKey()
                let devicePublicKey = Base64.encode(deviceKey.publicKey.x962Uncompressed)
                let response = try await api.send(
                    .createActivation, authorization: .bearer(token),
                    json: CreateActivationRequest(devicePublicKey: devicePublicKey, activationName: name),
                    as: CreateActivationResponse.self)
                let message = PowerAuthActivationMessage.signedMessage(
                    activationId: response.activationId, devicePublicKey: devicePublicKey,
                    serverPublicKey: response.serverPublicKey, ctrData: response.ctrData,
                    applicationKey: response.applicationKey, applicationSecret: response.applicationSecret)
                guard let signature = Base64.decodeStrict(response.activationSignature),
                      masterKey.isValidSignature(signature, for: message)
                else {
                    throw ClientFailure(
                        "The activation is not signed by the pinned master key; nothing was stored.",
                        AssentErrorCode.activationSignatureInvalid)
                }
                guard let serverKeyBytes = Base64.decodeStrict(response.serverPublicKey),
                      let serverKey = try? P256.PublicKey(x962: serverKeyBytes),
                      Base64.decodeStrict(response.ctrData)?.count == 16
                else { throw ClientFailure("The activation answer is malformed.", AssentErrorCode.decodingError) }
                let fingerprint = PowerAuthFingerprint.compute(
                    devicePublicKey: deviceKey.publicKey, activationID: response.activationId, serverPublicKey: serverKey)
                guard fingerprint == response.activationFingerprint else {
                    throw ClientFailure(
                        "The activation fingerprint does not match; nothing was stored.", AssentErrorCode.activationSignatureInvalid)
                }
                let keys = try Self.crypto("Cannot derive the activation keys") {
                    try PowerAuthDerivedKeys(masterSecret: try PowerAuth.masterSecret(privateKey: deviceKey, publicKey: serverKey))
                }
                let deviceRelated = try await deviceRelatedKey(create: true)
                let salt = SecureRandom.bytes(16)
                let knowledge = try Self.crypto("Cannot protect the knowledge key") {
                    try PowerAuthKnowledgeKey.protect(keys.knowledge, password: Array(password.utf8), salt: salt)
                }
                let vaulted = try Self.crypto("Cannot protect the device key") {
                    try AES.CBC.encrypt(deviceKey.rawRepresentation, key: keys.vault, iv: Self.zeroIV, padding: true)
                }
                try await save(ActivationData(
                    activationId: response.activationId, applicationKey: response.applicationKey,
                    applicationSecret: response.applicationSecret, serverPublicKey: response.serverPublicKey,
                    activationFingerprint: fingerprint, counterData: response.ctrData, counterByte: 0,
                    possessionKey: Base64.encode(try Self.wrap(keys.possession, key: deviceRelated)),
                    transportKey: Base64.encode(try Self.wrap(keys.transport, key: deviceRelated)),
                    knowledgeKey: Base64.encode(knowledge), passwordSalt: Base64.encode(salt),
                    passwordIterations: PowerAuth.passwordIterations, biometryKey: nil,
                    devicePrivateKey: Base64.encode(vaulted)))
                return CreatedActivation(
                    activationId: response.activationId, activationFingerprint: fingerprint,
                    activationStatus: response.activationStatus)
            }
        }
    }

    /// Forgets the activation on this device (keys, counter, biometry factor). The server is not told; the
    /// backend removes the activation there.
    ///
    /// - Returns: `true` when there was one.
    public func removeActivationLocal() async -> AssentResponse<Bool> {
        await .run { () async throws(ClientFailure) -> Bool? in
            try await lock.run { () async throws(ClientFailure) -> Bool in
                let had = try await loadData() != nil
                try await deleteSecret(Self.biometrySecretName)
                try await deleteSecret(Self.activationSecretName)
                return had
            }
        }
    }

    // MARK: Status

    /// Fetches the encrypted status, and synchronizes the signature counter with the server's: adopts the server's
    /// when it is ahead, reports ``ActivationState/deadlock`` when this device is a whole look-ahead window (or more)
    /// ahead and no signature can verify again. Call it after a failed ``addBiometryFactor(password:prompt:)`` or
    /// ``removeBiometryFactor()``, and after any 401, to resynchronize and read the remaining attempts.
    ///
    /// - Returns: The status, or `missing_activation`, `activation_not_found` (server), `network_error`, ...
    public func fetchActivationStatus() async -> AssentResponse<ActivationStatus> {
        await .run { () async throws(ClientFailure) -> ActivationStatus? in
            let snapshot = try await requireData()
            let challenge = SecureRandom.bytes(16)
            let response = try await api.send(
                .getActivationStatus,
                json: ActivationStatusRequest(activationId: snapshot.activationId, challenge: Base64.encode(challenge)),
                as: ActivationStatusResponse.self)
            return try await lock.run { () async throws(ClientFailure) -> ActivationStatus in
                var data = try await requireData()
                let deviceRelated = try await deviceRelatedKey(create: false)
                let transport = try Self.unwrap(try Self.decode(data.transportKey, "transport key"), key: deviceRelated)
                guard let blob = Base64.decodeStrict(response.encryptedStatusBlob),
                      let nonce = Base64.decodeStrict(response.nonce)
                else { throw .decoding }
                let status = try Self.crypto("The status blob does not decrypt") {
                    try PowerAuthStatusBlob.decrypt(blob, transportKey: transport, challenge: challenge, nonce: nonce)
                }
                guard var state = ActivationState(blobCode: status.status) else {
                    throw ClientFailure("Unknown activation status \(status.status).", AssentErrorCode.decodingError)
                }
                let lookAhead = Int(status.lookAhead)
                var distance = 0
                var recommended = false
                if state == .active {
                    let local = try Self.decode(data.counterData, "counter")
                    let outcome = try Self.crypto("Cannot compare counters") {
                        try CounterSynchronization.evaluate(
                            localCounterData: local, localCounterByte: data.counterByte,
                            serverCounterByte: status.counterByte, serverCounterDataHash: status.counterDataHash,
                            transportKey: transport, lookAhead: lookAhead)
                    }
                    switch outcome {
                    case .inStep:
                        if data.counterByte != Int(status.counterByte) {
                            data.counterByte = Int(status.counterByte)
                            try await save(data)
                        }
                    case .clientAhead(let ahead, let soon):
                        distance = ahead
                        recommended = soon
                    case .serverAhead(let steps):
                        data.counterData = Base64.encode(PowerAuthCounter.advance(local, by: steps))
                        data.counterByte = Int(status.counterByte)
                        try await save(data)
                    case .deadlock:
                        state = .deadlock
                    }
                }
                return ActivationStatus(
                    state: state, failCount: Int(status.failedAttempts), maxFailCount: Int(status.maxFailedAttempts),
                    lookAhead: lookAhead, counterDistance: distance, isSignatureCalculationRecommended: recommended)
            }
        }
    }

    // MARK: Signatures

    /// The `X-PowerAuth-Authorization` header for a request: version 3.3, Base64 signature over
    /// `METHOD & B64(uriId) & nonce & B64(body) & applicationSecret` with the factors of `authentication`. For GET,
    /// `body` is the query string (`a=1&b=2`, without `?`), which is signed in its canonical form.
    ///
    /// The counter advances (and is saved) before the header is returned, whatever becomes of the request. A
    /// biometric `authentication` prompts, unless it is the reusable object of
    /// ``groupedBiometricAuthentication(_:_:)`` within its keep-alive.
    ///
    /// - Returns: The header, or `missing_activation`, `authentication_invalidated`, `biometry_factor_not_configured`,
    ///   `biometry_key_invalidated`, `biometry_busy`, `biometry_lockout`, `user_authentication_failed`, ...
    public func authenticationHeaderForRequestWithBody(
        _ authentication: PowerAuthAuthentication, method: String, uriId: String, body: String
    ) async -> AssentResponse<PowerAuthHTTPHeader> {
        await authenticationHeaderForRequestWithBody(authentication, method: method, uriId: uriId, bodyBytes: Array(body.utf8))
    }

    /// ``authenticationHeaderForRequestWithBody(_:method:uriId:body:)`` for a body given as bytes.
    public func authenticationHeaderForRequestWithBody(
        _ authentication: PowerAuthAuthentication, method: String, uriId: String, bodyBytes: [UInt8]
    ) async -> AssentResponse<PowerAuthHTTPHeader> {
        await .run { () async throws(ClientFailure) -> PowerAuthHTTPHeader? in
            let value = try await header(authentication, method: method, uriId: uriId, body: bodyBytes)
            return PowerAuthHTTPHeader(key: PowerAuthAuthorizationHeader.name, value: value)
        }
    }

    /// The header value; see ``authenticationHeaderForRequestWithBody(_:method:uriId:body:)``.
    func header(
        _ authentication: PowerAuthAuthentication, method: String, uriId: String, body: [UInt8]
    ) async throws(ClientFailure) -> String {
        guard !authentication.isInvalidated else {
            throw ClientFailure(
                "This authentication was refused by the server (401) and cannot be used again; create a new one.",
                AssentErrorCode.authenticationInvalidated)
        }
        let method = method.uppercased()
        var signedBody = body
        if method == "GET" {
            guard let canonical = PowerAuthRequestData.canonicalQuery(rawQuery: String(decoding: body, as: UTF8.self)) else {
                throw ClientFailure("The GET query string is malformed.", AssentErrorCode.apiError)
            }
            signedBody = Array(canonical.utf8)
        }
        let snapshot = try await requireData()
        // Factors that may prompt are resolved before the signing lock, so a concurrent biometric request fails at
        // once rather than waiting behind this one.
        var knowledge: [UInt8]?
        if let password = authentication.knowledgePassword {
            let salt = try Self.decode(snapshot.passwordSalt, "password salt")
            let protected = try Self.decode(snapshot.knowledgeKey, "knowledge key")
            knowledge = try Self.crypto("Cannot open the knowledge key") {
                try PowerAuthKnowledgeKey.unprotect(
                    protected, password: Array(password.utf8), salt: salt, iterations: snapshot.passwordIterations)
            }
        }
        let biometry = authentication.usesBiometry ? try await biometryKey(for: authentication, data: snapshot) : nil
        return try await lock.run { () async throws(ClientFailure) -> String in
            var data = try await requireData()
            guard data.activationId == snapshot.activationId else { throw .activationChanged }
            let deviceRelated = try await deviceRelatedKey(create: false)
            let possession = try Self.unwrap(try Self.decode(data.possessionKey, "possession key"), key: deviceRelated)
            let counter = try Self.decode(data.counterData, "counter")
            let nonce = SecureRandom.bytes(16)
            let normalized = PowerAuthRequestData.normalized(
                method: method, uriID: uriId, nonce: nonce, body: signedBody, applicationSecret: data.applicationSecret)
            let signature = try Self.crypto("Cannot compute the signature") {
                try PowerAuthSignature.compute(
                    type: authentication.signatureType,
                    keys: PowerAuthSignatureKeys(possession: possession, knowledge: knowledge, biometry: biometry),
                    counterData: counter, data: normalized, format: .base64)
            }
            data.counterData = Base64.encode(PowerAuthCounter.next(counter))
            data.counterByte = (data.counterByte + 1) & 0xFF
            try await save(data)
            return PowerAuthAuthorizationHeader(
                activationID: data.activationId, applicationKey: data.applicationKey, nonce: Base64.encode(nonce),
                signatureType: authentication.signatureType, signature: signature
            ).headerValue
        }
    }

    /// Sends `body` (raw JSON) to `endpoint` (a `POST`), signed with `authentication` over `uriId`; a 401 invalidates
    /// `authentication`.
    func sendSigned<Response: Decodable>(
        _ authentication: PowerAuthAuthentication, _ endpoint: Endpoint, uriId: String, body: Data, as type: Response.Type
    ) async throws(ClientFailure) -> Response {
        let value = try await header(authentication, method: endpoint.method, uriId: uriId, body: Array(body))
        do {
            return try await api.send(
                endpoint, publicKey: nil, authorization: .tenant,
                headers: [PowerAuthAuthorizationHeader.name: value], body: body, as: type)
        } catch {
            if error.httpStatus == 401 { authentication.invalidate() }
            throw error
        }
    }

    func requireConfiguration() throws(ClientFailure) -> PowerAuthConfiguration {
        guard let configuration else {
            throw ClientFailure(
                "PowerAuth is not configured: create the SDK with a PowerAuthConfiguration (the pinned master public key).",
                AssentErrorCode.powerAuthNotConfigured)
        }
        return configuration
    }
}

extension ClientFailure {
    static let activationChanged = ClientFailure(
        "The activation changed while the request was being signed.", AssentErrorCode.missingActivation)
}
