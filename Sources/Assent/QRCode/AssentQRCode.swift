import AssentCrypto
import AssentWire

/// QR code verification, operation for operation as the specification (`qr-code-verification.md`) describes it: a
/// page (desktop, kiosk) shows a QR code naming a challenge; this device, enrolled with its own P-256 key
/// (``keyName``, separate from push), claims the challenge to learn who is asking, then approves or declines it.
///
/// ```swift
/// let claim = await assent.qr.claimChallenge(payload: scannedText)
/// if let claim = claim.data {  // show claim.ipAddress, claim.location, claim.userAgent, claim.actionCode, claim.custom
///     _ = await assent.qr.updateChallenge(challengeId: claim.challengeId, approved: true)
/// }
/// ```
///
/// Every operation answers an ``AssentResponse`` and never drops an error; the codes are those of
/// ``AssentErrorCode`` plus the server's own `errorCode`s passed through — notably `challenge_closed` when the
/// challenge expired or another device claimed it first, and `forbidden` when this credential may not act on it.
public final class AssentQRCode: Sendable {
    private let context: NamespaceContext

    init(_ context: NamespaceContext) { self.context = context }

    /// The name of the QR code credential's key in the ``KeyStore`` (distinct from ``AssentPush/keyName``: the two
    /// credentials are enrolled, used and removed independently).
    public static let keyName = "assent_signing_key_qr_code"
    private var credential: CredentialKey {
        CredentialKey(
            context: context, name: Self.keyName, addEndpoint: .addQRCodeCredential, getEndpoint: .getQRCodeCredential,
            removeEndpoint: .removeQRCodeCredential, answerEndpoint: .updateQRCodeChallenge, method: .device)
    }

    // MARK: Credential

    /// Enrols this device for QR code verification: creates the key pair (or reuses the QR key already on the
    /// device, as the official SDKs do) and registers its public key with the server.
    ///
    /// - Parameters:
    ///   - token: A short-lived token from tracking an action with scope `add:authenticators`; the token set with
    ///     ``Assent/setToken(_:)`` when nil.
    ///   - userPresenceRequired: iOS style: every use of the key first passes the ``UserAuthenticator``.
    ///   - userAuthenticationRequired: Android style: use of the key needs a user authentication at most `timeout`
    ///     seconds old.
    ///   - timeout: Seconds the key stays usable after one authentication; 0 = every use authenticates.
    ///   - authorizationType: Which methods may authenticate.
    /// - Returns: The credential, or `token_not_set`, `create_key_pair_failed`, `key_store_error`, `network_error`,
    ///   or the server's code (e.g. `expired_token`). The policy is recorded with a new key; a reused key keeps its own.
    public func addCredential(
        token: String? = nil, userPresenceRequired: Bool = false, userAuthenticationRequired: Bool = false,
        timeout: Int = 0, authorizationType: AuthorizationType = .biometricOrDeviceCredential
    ) async -> AssentResponse<AppCredential> {
        await credential.add(
            token: token,
            policy: KeyAccessPolicy(
                userPresenceRequired: userPresenceRequired, userAuthenticationRequired: userAuthenticationRequired,
                timeout: timeout, authorizationType: authorizationType))
    }

    /// Enrols this device with an Android key policy whose `authorizationType` is Android's bit mask, as the QR code
    /// document's Android example writes it: 0 the platform default (either method), 1 device credential,
    /// 2 biometric, 3 either. Otherwise the same as
    /// ``addCredential(token:userPresenceRequired:userAuthenticationRequired:timeout:authorizationType:)``.
    ///
    /// - Returns: As that method, or `invalid_authorization_type` for another mask (nothing created, nothing sent).
    public func addCredential(
        token: String? = nil, userAuthenticationRequired: Bool, timeout: Int = 0, authorizationType: Int
    ) async -> AssentResponse<AppCredential> {
        guard let type = AuthorizationType(androidValue: authorizationType) else {
            return AuthorizationType.invalid(authorizationType)
        }
        return await addCredential(
            token: token, userAuthenticationRequired: userAuthenticationRequired, timeout: timeout,
            authorizationType: type)
    }

    /// Where this device's QR code key lives: ``KeyProtection/secureEnclave``, or ``KeyProtection/software`` where the
    /// device has no Secure Enclave (the iOS simulator, some Macs) and on Linux; nil when the device holds no QR code key
    /// or it cannot be read. Tell the user when the protection is weaker than your policy wants.
    public func keyProtection() async -> KeyProtection? {
        await credential.protection()
    }

    /// The QR code credential on this device as the server knows it.
    ///
    /// - Returns: The credential, or `credential_not_found` when the device holds no QR key, `invalid_credential`
    ///   when the server no longer knows it, `network_error`, ...
    public func getCredential() async -> AssentResponse<AppCredential> {
        await credential.get()
    }

    /// Removes the QR code credential: signs the current time window, asks the server to remove it, then deletes the
    /// key from this device whatever the server answered (so a device whose credential was already removed on the
    /// server can start over). The push credential, if any, is untouched.
    ///
    /// - Returns: `true` when both the server and the device removed it. When the server refused or could not be
    ///   reached, `data` is `false` and `error`/`errorCode` say why — the local key is gone all the same.
    ///   `credential_not_found` when the device held no QR key.
    public func removeCredential() async -> AssentResponse<Bool> {
        await credential.remove()
    }

    // MARK: Challenge

    /// Claims the challenge a scanned QR code names, so that this device — and no other — may answer it, and
    /// returns the context of the page that shows the code. The request signs Assent's bound claim message (the
    /// credential's id and the challenge ID), which no answer accepts.
    ///
    /// - Parameter challengeId: The challenge ID from the QR code (see ``claimChallenge(payload:)`` for the code's
    ///   text as scanned).
    /// - Returns: The claim with its context; or `challenge_closed` when the challenge expired or another device
    ///   claimed it first, `forbidden` when it was started for another user, `invalid_credential` when the server
    ///   no longer knows this device's credential, `credential_not_found` when the device holds no QR key, ...
    public func claimChallenge(challengeId: String) async -> AssentResponse<ClaimedChallenge> {
        await .run { () async throws(ClientFailure) -> ClaimedChallenge? in
            try await claim(challengeId)
        }
    }

    /// Claims the challenge named by a QR code's text as scanned: `assent://qr?tenant=<id>&challenge=<id>` (what
    /// the server's `qrPayload` holds) or a bare challenge ID (64 hex characters).
    ///
    /// A payload that names another tenant is refused with `tenant_mismatch` before anything is signed or sent; text
    /// that is not a QR payload at all is `invalid_qr_payload`. Otherwise as ``claimChallenge(challengeId:)``.
    public func claimChallenge(payload: String) async -> AssentResponse<ClaimedChallenge> {
        await .run { () async throws(ClientFailure) -> ClaimedChallenge? in
            try await claim(try challengeId(fromPayload: payload))
        }
    }

    /// Approves or declines a challenge this device claimed. Sends Assent's bound signature over
    /// ``AssentWire/SignedMessage/decision(credentialId:challengeId:approved:verificationCode:)``, so neither the
    /// decision nor the code can be altered in transit.
    ///
    /// - Parameters:
    ///   - challengeId: The challenge from ``claimChallenge(challengeId:)``.
    ///   - approved: The user's answer.
    ///   - verificationCode: A code the page shows, for a challenge that requires one.
    /// - Returns: `true` when the server recorded the answer; or `forbidden` when another device holds the claim
    ///   (or none does yet), `challenge_closed` when it expired or was already answered, ...
    ///
    /// A key that requires user authentication prompts here (unless an earlier authentication is still valid).
    public func updateChallenge(challengeId: String, approved: Bool, verificationCode: String? = nil) async
        -> AssentResponse<Bool>
    {
        await credential.answer(challengeId: challengeId, approved: approved, verificationCode: verificationCode)
    }

    /// A signer for one answer: when the key requires user authentication it becomes usable only after
    /// ``CredentialSigner/authenticate(prompt:)`` succeeds.
    public func startSigning() async -> AssentResponse<CredentialSigner> {
        await credential.startSigning()
    }

    /// Approves or declines a claimed challenge with a signer from ``startSigning()``, which signs once.
    ///
    /// - Returns: as ``updateChallenge(challengeId:approved:verificationCode:)``, plus `user_authentication_required`
    ///   before the user authenticated with the signer and `signer_invalid` when it was used or is the push one.
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

    // MARK: Payloads

    /// The challenge ID in a QR payload meant for this SDK's tenant.
    func challengeId(fromPayload text: String) throws(ClientFailure) -> String {
        guard let payload = QRPayload(text: text) else {
            throw ClientFailure(
                "The QR code is not an Assent challenge (expected assent://qr?tenant=…&challenge=… or a challenge ID).",
                AssentErrorCode.invalidQRPayload)
        }
        if let tenant = payload.tenantID, tenant != context.api.tenantID {
            throw ClientFailure(
                "The QR code is for tenant '\(tenant)', but this device is enrolled with tenant '\(context.api.tenantID)'.",
                AssentErrorCode.tenantMismatch)
        }
        return payload.challengeID
    }

    private func claim(_ challengeId: String) async throws(ClientFailure) -> ClaimedChallenge {
        let key = try await requireKey()
        try await credential.authorize(key)
        let response = try await credential.withCredentialID(of: key) {
            (credentialId: String) async throws(ClientFailure) -> ClaimChallengeResponse in
            let claim = SignedMessage.claim(credentialId: credentialId, challengeId: challengeId)
            let request = ClaimChallengeRequest(
                challengeId: challengeId, publicKey: CredentialKey.publicKey(key),
                signature: try await CredentialKey.sign(claim, with: key))
            return try await context.api.send(.claimQRCodeChallenge, json: request, as: ClaimChallengeResponse.self)
        }
        return ClaimedChallenge(challengeId: challengeId, response)
    }

    // MARK: Keys

    private func requireKey() async throws(ClientFailure) -> any SigningKey { try await credential.require() }
}
