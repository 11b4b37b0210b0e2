import AssentCrypto
import AssentWire

/// Push verification, operation for operation as the specification (`push-verification.md`) describes it: the device
/// holds a P-256 key (``keyName``) whose public half the server stores; every call after enrolment is
/// authenticated by the tenant ID and a signature with that key.
///
/// Every operation answers an ``AssentResponse`` and never drops an error; the codes are those of
/// ``AssentErrorCode`` plus the server's own `errorCode`s (`invalid_credential`, `expired_token`, ...) passed through.
public final class AssentPush: Sendable {
    private let api: ClientAPI
    private let keyStore: any KeyStore
    private let clock: AssentClock
    private let device: DeviceInfo
    private let tokens: TokenCache

    init(api: ClientAPI, keyStore: any KeyStore, clock: AssentClock, device: DeviceInfo, tokens: TokenCache) {
        self.api = api
        self.keyStore = keyStore
        self.clock = clock
        self.device = device
        self.tokens = tokens
    }

    private static let credentialPath = "/client/user-authenticators/push"
    /// The name of the push credential's key in the ``KeyStore``.
    public static let keyName = "assent_signing_key_push"
    private var keyName: String { Self.keyName }
    private var credential: CredentialKey {
        CredentialKey(api: api, keyStore: keyStore, clock: clock, name: Self.keyName, path: Self.credentialPath)
    }

    // MARK: Credential

    /// Enrols this device: creates the key pair (or reuses the one already on the device, as the official SDKs do)
    /// and registers its public key with the server.
    ///
    /// - Parameters:
    ///   - token: A short-lived token from tracking an action with scope `add:authenticators`; the token set with
    ///     ``Assent/setToken(_:)`` when nil.
    ///   - userPresenceRequired: Require the user's biometrics or PIN for every use of the key (recorded with a new
    ///     key; enforced by platform key stores).
    ///   - pushToken: The APNs or FCM token to deliver challenges to.
    /// - Returns: The credential, or `token_not_set`, `create_key_pair_failed`, `key_store_error`, `network_error`,
    ///   or the server's code (e.g. `expired_token`).
    public func addCredential(
        token: String? = nil, userPresenceRequired: Bool = false, pushToken: String? = nil
    ) async -> AssentResponse<AppCredential> {
        await .run { () async throws(ClientFailure) -> AppCredential? in
            guard let token = tokens.resolve(token) else { throw .tokenNotSet }
            let key: any SigningKey
            if let existing = try await loadKey() {
                key = existing
            } else {
                do {
                    key = try await keyStore.createKey(named: keyName, userPresenceRequired: userPresenceRequired)
                } catch {
                    throw ClientFailure("Failed to create a key pair: \(error)", AssentErrorCode.createKeyPairFailed)
                }
            }
            let request = AddCredentialRequest(
                publicKey: CredentialKey.publicKey(key), deviceName: device.name, devicePlatform: device.platform,
                pushToken: pushToken, userPresenceRequired: userPresenceRequired)
            let response = try await api.send(
                "POST", Self.credentialPath, authorization: .bearer(token), json: request, as: AddCredentialResponse.self)
            return AppCredential(response)
        }
    }

    /// The credential on this device as the server knows it.
    ///
    /// - Returns: The credential, or `credential_not_found` when the device holds no key, `invalid_credential` when
    ///   the server no longer knows it, `network_error`, ...
    public func getCredential() async -> AssentResponse<AppCredential> {
        await .run { () async throws(ClientFailure) -> AppCredential? in
            let key = try await requireKey()
            let response = try await api.send(
                "GET", Self.credentialPath, publicKey: CredentialKey.publicKey(key), as: CredentialResponse.self)
            return AppCredential(response)
        }
    }

    /// Points the credential at a new push token and/or renews its lease, with no backend token: the device signs a
    /// single-use server nonce (`POST .../push/sign`) and sends it with the changes (`PATCH .../push`).
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
            let nonce = try await api.send(
                "POST", Self.credentialPath + "/sign", publicKey: publicKey, as: SigningMessageResponse.self)
            guard let challengeId = nonce.challengeId, let message = nonce.message else {
                throw ClientFailure("Invalid signing message response.", AssentErrorCode.decodingError)
            }
            let request = UpdateCredentialRequest(
                challengeId: challengeId, publicKey: publicKey, signature: try await CredentialKey.sign(message, with: key),
                pushToken: pushToken, resetExpiry: resetExpiry ? true : nil)
            let response = try await api.send(
                "PATCH", Self.credentialPath, json: request, as: UpdateCredentialResponse.self)
            return UpdatedAppCredential(response)
        }
    }

    /// Removes the credential: signs the current time window, asks the server to remove it, then deletes the key
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

    /// The pending challenge for this device, if any, with its context.
    ///
    /// Asks the server for a single-use nonce (`POST .../push/challenge/sign`), signs it and sends the signature as
    /// `X-Authsignal-Signature`, which is what makes the server include public custom data. A server without the
    /// nonce endpoint (404 without a body) gets the unsigned request.
    ///
    /// - Returns: The challenge; `nil` data (and no error) when none is pending; or an error such as
    ///   `invalid_credential` when the server no longer knows this device's credential.
    public func getChallenge() async -> AssentResponse<AppChallenge?> {
        let response: AssentResponse<AppChallenge?> = await .run { () async throws(ClientFailure) -> AppChallenge?? in
            let key = try await requireKey()
            let publicKey = CredentialKey.publicKey(key)
            var headers: [String: String] = [:]
            do throws(ClientFailure) {
                let nonce = try await api.send(
                    "POST", Self.credentialPath + "/challenge/sign", publicKey: publicKey, as: SigningMessageResponse.self)
                if let message = nonce.message {
                    headers["X-Authsignal-Signature"] = try await CredentialKey.sign(message, with: key)
                }
            } catch {
                // An older server without the nonce endpoint (404, no body) gets the unsigned request; any other
                // failure is the answer.
                guard error.isEndpointNotFound else { throw error }
            }
            let response = try await api.send(
                "GET", Self.credentialPath + "/challenge", publicKey: publicKey, headers: headers,
                as: PushChallengeResponse.self)
            guard let challengeId = response.challengeId else { return .some(nil) }
            guard let userId = response.userId else { throw .decoding }
            return .some(AppChallenge(challengeId: challengeId, userId: userId, response))
        }
        return response
    }

    /// Approves or denies a challenge. Sends the compatible signature over the challenge ID and Assent's bound
    /// signature over ``AssentWire/SignedMessage/decision(challengeId:approved:verificationCode:)``, so neither the
    /// decision nor the code can be altered in transit.
    ///
    /// - Parameters:
    ///   - challengeId: The challenge from ``getChallenge()``.
    ///   - approved: The user's answer.
    ///   - verificationCode: The code the initiating page shows, when the challenge requires one.
    /// - Returns: `true` when the server recorded the answer, or an error.
    public func updateChallenge(challengeId: String, approved: Bool, verificationCode: String? = nil) async
        -> AssentResponse<Bool>
    {
        await credential.answer(challengeId: challengeId, approved: approved, verificationCode: verificationCode)
    }

    // MARK: Keys and signatures

    private func loadKey() async throws(ClientFailure) -> (any SigningKey)? { try await credential.load() }

    private func requireKey() async throws(ClientFailure) -> any SigningKey { try await credential.require() }
}
