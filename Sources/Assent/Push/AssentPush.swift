import AssentCrypto
import AssentWire

/// Push verification, operation for operation as the specification (`push-verification.md`) describes it: the device
/// holds a P-256 key (``keyName``) whose public half the server stores; every call after enrolment is
/// authenticated by the tenant ID and a signature with that key.
///
/// Every operation answers an ``AssentResponse`` and never drops an error; the codes are those of
/// ``AssentErrorCode`` plus the server's own `errorCode`s (`invalid_credential`, `expired_token`, ...) passed through.
public final class AssentPush: Sendable {
    private let context: NamespaceContext

    init(_ context: NamespaceContext) { self.context = context }

    /// The name of the push credential's key in the ``KeyStore``.
    public static let keyName = "assent_signing_key_push"
    private var credential: CredentialKey {
        CredentialKey(
            context: context, name: Self.keyName, addEndpoint: .addPushCredential, getEndpoint: .getPushCredential,
            removeEndpoint: .removePushCredential, answerEndpoint: .updatePushChallenge, method: .push)
    }

    // MARK: Credential

    /// Enrols this device: creates the key pair (or reuses the one already on the device, as the official SDKs do)
    /// and registers its public key with the server.
    ///
    /// - Parameters:
    ///   - token: A short-lived token from tracking an action with scope `add:authenticators`; the token set with
    ///     ``Assent/setToken(_:)`` when nil.
    ///   - userPresenceRequired: iOS style: every use of the key first passes the ``UserAuthenticator``
    ///     (biometrics or device credential).
    ///   - userAuthenticationRequired: Android style: use of the key needs a user authentication at most `timeout`
    ///     seconds old.
    ///   - timeout: Seconds the key stays usable after one authentication; 0 = every use authenticates.
    ///   - authorizationType: Which methods may authenticate.
    ///   - pushToken: The APNs or FCM token to deliver challenges to.
    /// - Returns: The credential, or `token_not_set`, `create_key_pair_failed`, `key_store_error`, `network_error`,
    ///   or the server's code (e.g. `expired_token`). The policy is recorded with a new key; a reused key keeps its own.
    public func addCredential(
        token: String? = nil, userPresenceRequired: Bool = false, userAuthenticationRequired: Bool = false,
        timeout: Int = 0, authorizationType: AuthorizationType = .biometricOrDeviceCredential, pushToken: String? = nil
    ) async -> AssentResponse<AppCredential> {
        await credential.add(
            token: token,
            policy: KeyAccessPolicy(
                userPresenceRequired: userPresenceRequired, userAuthenticationRequired: userAuthenticationRequired,
                timeout: timeout, authorizationType: authorizationType),
            pushToken: pushToken)
    }

    /// Enrols this device with an Android key policy whose `authorizationType` is Android's bit mask, as the push
    /// document's Android example writes it (`authorizationType = 0`): 0 the platform default (either method),
    /// 1 device credential, 2 biometric, 3 either. Otherwise the same as
    /// ``addCredential(token:userPresenceRequired:userAuthenticationRequired:timeout:authorizationType:pushToken:)``.
    ///
    /// - Returns: As that method, or `invalid_authorization_type` for another mask (nothing created, nothing sent).
    public func addCredential(
        token: String? = nil, userAuthenticationRequired: Bool, timeout: Int = 0, authorizationType: Int,
        pushToken: String? = nil
    ) async -> AssentResponse<AppCredential> {
        guard let type = AuthorizationType(androidValue: authorizationType) else {
            return AuthorizationType.invalid(authorizationType)
        }
        return await addCredential(
            token: token, userAuthenticationRequired: userAuthenticationRequired, timeout: timeout,
            authorizationType: type, pushToken: pushToken)
    }

    /// Where this device's push key lives: ``KeyProtection/secureEnclave``, or ``KeyProtection/software`` where the
    /// device has no Secure Enclave (the iOS simulator, some Macs) and on Linux; nil when the device holds no push key
    /// or it cannot be read. Tell the user when the protection is weaker than your policy wants.
    public func keyProtection() async -> KeyProtection? {
        await credential.protection()
    }

    /// The credential on this device as the server knows it.
    ///
    /// - Returns: The credential, or `credential_not_found` when the device holds no key, `invalid_credential` when
    ///   the server no longer knows it, `network_error`, ...
    public func getCredential() async -> AssentResponse<AppCredential> {
        await credential.get()
    }

    /// Points the credential at a new push token and/or renews its lease, with no backend token: the device signs a
    /// single-use server nonce (`POST .../push/sign`), within the bound update message that names the credential, and
    /// sends it with the changes (`PATCH .../push`).
    ///
    /// - Parameters:
    ///   - pushToken: The new APNs or FCM token; nil keeps the current one.
    ///   - resetExpiry: Renew the credential's lease (sent only when true).
    public func updateCredential(pushToken: String? = nil, resetExpiry: Bool = false) async
        -> AssentResponse<UpdatedAppCredential>
    {
        await .run { () async throws(ClientFailure) -> UpdatedAppCredential? in
            let key = try await requireKey()
            let publicKey = CredentialKey.publicKey(key)
            try await credential.authorize(key)
            // A retry (after a stale credential id) asks for a new nonce: each is single-use.
            let response = try await credential.withCredentialID(of: key) {
                (credentialId: String) async throws(ClientFailure) -> UpdateCredentialResponse in
                let nonce = try await context.api.send(
                    .signPushCredentialUpdate, publicKey: publicKey, as: SigningMessageResponse.self)
                guard let challengeId = nonce.challengeId, let message = nonce.message else {
                    throw ClientFailure("Invalid signing message response.", AssentErrorCode.decodingError)
                }
                let bound = SignedMessage.update(credentialId: credentialId, nonce: message)
                let request = UpdateCredentialRequest(
                    challengeId: challengeId, publicKey: publicKey, signature: try await CredentialKey.sign(bound, with: key),
                    pushToken: pushToken, resetExpiry: resetExpiry ? true : nil)
                return try await context.api.send(.updatePushCredential, json: request, as: UpdateCredentialResponse.self)
            }
            await credential.memory.remember(response.userAuthenticatorId, for: key)
            return UpdatedAppCredential(response)
        }
    }

    /// Removes the credential: signs the bound removal message for the current time window, asks the server to remove it, then deletes the key
    /// from this device whatever the server answered (so a device whose credential was already removed on the server
    /// can start over).
    ///
    /// - Returns: `true` when both the server and the device removed it. When the server refused or could not be
    ///   reached, `data` is `false` and `error`/`errorCode` say why — the local key is gone all the same.
    ///   `credential_not_found` when the device held no key.
    public func removeCredential() async -> AssentResponse<Bool> {
        await credential.remove()
    }

    // MARK: Challenge

    /// The pending challenge for this device, if any, with its 
    ///
    /// ```swift
    /// let response = await assent.push.getChallenge()
    /// if let error = response.error {
    ///     // The credential stored on the device is invalid (or the server could not be reached)
    /// } else if let challenge = response.data {
    ///     // A pending challenge: show its context, then answer it with challenge.challengeId
    /// } else {
    ///     // No pending challenge
    /// }
    /// ```
    ///
    /// Asks the server for a single-use nonce (`POST .../push/challenge/sign`), signs it and sends the signature as
    /// `X-Authsignal-Signature`, which is what makes the server include public custom data. A server without the
    /// nonce endpoint (404 without a body) gets the unsigned request. Fetching never prompts the user: a key that
    /// requires user authentication signs the nonce only while an earlier authentication is still valid (its
    /// `timeout`), otherwise the request goes unsigned and public custom data is left out.
    ///
    /// - Returns: The challenge as `data`; when none is pending, nil `data` and no error (``AssentResponse/isError``
    ///   is false); or an error such as `invalid_credential` when the server no longer knows this device's credential.
    public func getChallenge() async -> AssentResponse<AppChallenge> {
        await .run { () async throws(ClientFailure) -> AppChallenge? in
            let key = try await requireKey()
            let publicKey = CredentialKey.publicKey(key)
            var headers: [String: String] = [:]
            if context.gate.isSatisfied(key.accessPolicy) {
                headers["X-Authsignal-Signature"] = try await nonceSignature(key: key, publicKey: publicKey)
            }
            let response = try await context.api.send(
                .getPushChallenge, publicKey: publicKey, headers: headers,
                as: PushChallengeResponse.self)
            guard let challengeId = response.challengeId else { return nil }
            guard let userId = response.userId else { throw .decoding }
            return AppChallenge(challengeId: challengeId, userId: userId, response)
        }
    }

    /// Approves or denies a challenge. Sends Assent's bound signature over
    /// ``AssentWire/SignedMessage/decision(credentialId:challengeId:approved:verificationCode:)``, so neither the
    /// decision nor the code can be altered in transit.
    ///
    /// - Parameters:
    ///   - challengeId: The challenge from ``getChallenge()``.
    ///   - approved: The user's answer.
    ///   - verificationCode: The code the initiating page shows, when the challenge requires one.
    /// - Returns: `true` when the server recorded the answer, or an error.
    ///
    /// A key that requires user authentication prompts here (unless an earlier authentication is still valid); use
    /// ``startSigning()`` and ``updateChallenge(challengeId:approved:verificationCode:signer:)`` to authenticate first.
    public func updateChallenge(challengeId: String, approved: Bool, verificationCode: String? = nil) async
        -> AssentResponse<Bool>
    {
        await credential.answer(challengeId: challengeId, approved: approved, verificationCode: verificationCode)
    }

    /// Denies a challenge and, with `reportFraud`, says "this wasn't me": the server then locks push for the user
    /// for the tenant's `fraudLockSeconds` and tells the tenant's backend (`push.fraud_reported`). The report is
    /// covered by the bound signature, so it can be neither added nor removed in transit.
    ///
    /// - Parameters:
    ///   - challengeId: The challenge from ``getChallenge()``.
    ///   - approved: Must be `false` when `reportFraud` is `true` (an approval with a report is refused).
    ///   - verificationCode: The code the initiating page shows, when the challenge requires one.
    ///   - reportFraud: Whether the user says the push was not theirs.
    /// - Returns: `true` when the server recorded the answer, or an error.
    public func updateChallenge(
        challengeId: String, approved: Bool, verificationCode: String? = nil, reportFraud: Bool
    ) async -> AssentResponse<Bool> {
        await credential.answer(
            challengeId: challengeId, approved: approved, verificationCode: verificationCode, reportFraud: reportFraud)
    }

    /// A signer for one answer: when the key requires user authentication it becomes usable only after
    /// ``CredentialSigner/authenticate(prompt:)`` succeeds (the analogue of Android's `CryptoObject`).
    ///
    /// - Returns: The signer, or `credential_not_found`, `key_store_error`.
    public func startSigning() async -> AssentResponse<CredentialSigner> {
        await credential.startSigning()
    }

    /// Approves or denies a challenge with a signer from ``startSigning()``, which signs once.
    ///
    /// - Returns: `true` when the server recorded the answer; `user_authentication_required` when the user has not
    ///   authenticated with the signer; `signer_invalid` when it was already used or belongs to the QR credential.
    public func updateChallenge(
        challengeId: String, approved: Bool, verificationCode: String? = nil, signer: CredentialSigner
    ) async -> AssentResponse<Bool> {
        await credential.answer(
            challengeId: challengeId, approved: approved, verificationCode: verificationCode, signer: signer)
    }

    /// Approves or answers a challenge with a PowerAuth factor signature over this request as well (header
    /// `X-PowerAuth-Authorization`: POST, uriId = the request path, body = the JSON sent), so a tenant policy that
    /// requires, say, `possession_biometry` for approvals is met — the server verifies the factor, it does not take the
    /// app's word. A biometric `authentication` prompts (unless reusable within its keep-alive). A 401 invalidates
    /// `authentication`.
    ///
    /// - Returns: `true`; or `factor_required` (the tenant requires a factor this authentication lacks),
    ///   `invalid_signature` (counted), `authentication_invalidated`, `missing_activation`, ...
    public func updateChallenge(
        challengeId: String, approved: Bool, verificationCode: String? = nil, signer: CredentialSigner? = nil,
        authentication: PowerAuthAuthentication
    ) async -> AssentResponse<Bool> {
        await credential.answer(
            challengeId: challengeId, approved: approved, verificationCode: verificationCode, signer: signer,
            authentication: authentication)
    }

    // MARK: Keys and signatures

    /// The signature over a fresh server nonce, or nil from an older server without the nonce endpoint (404, no
    /// body); any other failure is the answer.
    private func nonceSignature(key: any SigningKey, publicKey: String) async throws(ClientFailure) -> String? {
        do {
            let nonce = try await context.api.send(
                .signPushChallengeFetch, publicKey: publicKey, as: SigningMessageResponse.self)
            guard let message = nonce.message else { return nil }
            return try await CredentialKey.sign(message, with: key)
        } catch {
            guard error.isEndpointNotFound else { throw error }
            return nil
        }
    }

    private func requireKey() async throws(ClientFailure) -> any SigningKey { try await credential.require() }
}
