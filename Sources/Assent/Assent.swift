/// The Assent client SDK: one instance per tenant and server, with one namespace per verification method.
///
/// ```swift
/// let assent = Assent(tenantID: "…", baseURL: "https://assent.example.com/v1")
/// let enrolled = await assent.push.addCredential(token: tokenFromYourBackend)
/// if let challenge = await assent.push.getChallenge().data {
///     _ = await assent.push.updateChallenge(challengeId: challenge.challengeId, approved: true)
/// }
/// ```
///
/// Every call answers an ``AssentResponse``; none throws. The platform is reached through seams — ``KeyStore``,
/// ``Transport``, ``UserAuthenticator``, ``AssentClock`` and, where the platform attests keys, ``Attester`` — that the
/// designated initializer takes and tests replace.
public final class Assent: Sendable {
    /// The SDK's version, sent as `X-Authsignal-Version` and in the `User-Agent`.
    public static let version = "0.1.0"
    /// The SDK's name, sent as `X-Authsignal-SDK`.
    public static let sdkName = "assent-swift"

    /// The tenant the device belongs to.
    public let tenantID: String
    /// The server's base URL including `/v1`, e.g. `http://127.0.0.1:8420/v1`.
    public let baseURL: String
    /// Push verification: enrol the device, keep its push token fresh, fetch and answer challenges.
    public let push: AssentPush
    /// QR code verification: enrol the device, claim the challenge a scanned code names, approve or decline it.
    public let qr: AssentQRCode

    /// PowerAuth-style activation, multi-factor request signatures and the biometry factor.
    public let powerAuth: AssentPowerAuth
    /// The platform's user authentication, asked before keys that require it are used.
    public let userAuthenticator: any UserAuthenticator

    private let tokens: TokenCache

    /// An SDK for `tenantID` at `baseURL` (which includes `/v1`), talking over ``URLSessionTransport`` and reading the
    /// system clock. On iOS and macOS it keeps keys in the Keychain and the Secure Enclave (``KeychainKeyStore``) and
    /// asks Face ID / Touch ID / the passcode through `LocalAuthenticationAuthenticator` (docs/apple.md); elsewhere it
    /// keeps keys in a ``FileKeyStore`` at ``FileKeyStore/defaultDirectory`` (no passphrase), with no user
    /// authentication available.
    public convenience init(tenantID: String, baseURL: String) {
        #if canImport(CryptoKit) && canImport(LocalAuthentication)
        let authenticator = LocalAuthenticationAuthenticator()
        self.init(tenantID: tenantID, baseURL: baseURL, keyStore: KeychainKeyStore(authenticator: authenticator),
                  transport: URLSessionTransport(), clock: .system, userAuthenticator: authenticator)
        #else
        self.init(tenantID: tenantID, baseURL: baseURL, keyStore: FileKeyStore(directory: FileKeyStore.defaultDirectory),
                  transport: URLSessionTransport(), clock: .system)
        #endif
    }

    /// An SDK with every seam given.
    ///
    /// - Parameters:
    ///   - tenantID: The tenant the device belongs to.
    ///   - baseURL: The server's base URL including `/v1`.
    ///   - keyStore: Where the device's private keys live.
    ///   - transport: How requests reach the server.
    ///   - clock: The time that time-window signatures cover.
    ///   - device: The name and platform sent at enrolment (``DeviceInfo/current`` by default); the platform also picks
    ///     the biometry defaults of `powerAuth` that biometry-setup.md gives per platform (`ios`, `android`).
    ///   - userAuthenticator: The platform's user authentication (``UnavailableUserAuthenticator`` by default, so keys
    ///     that require it cannot be used until one is given).
    ///   - powerAuth: The PowerAuth configuration (the pinned master public key); without it ``powerAuth`` answers
    ///     `powerauth_not_configured`.
    ///   - attester: Makes device attestations of the keys `push` and `qr` enrol, and App Attest assertions for their
    ///     approvals (see ``Attester``); none by default (the only choice on Linux), so enrolments carry no attestation.
    public init(
        tenantID: String, baseURL: String, keyStore: any KeyStore, transport: any Transport, clock: AssentClock,
        device: DeviceInfo = .current, userAuthenticator: any UserAuthenticator = UnavailableUserAuthenticator(),
        powerAuth configuration: PowerAuthConfiguration? = nil, attester: (any Attester)? = nil
    ) {
        let api = ClientAPI(tenantID: tenantID, baseURL: baseURL, transport: transport)
        let tokens = TokenCache()
        let gate = UserAuthenticationGate(authenticator: userAuthenticator, clock: clock)
        self.tenantID = tenantID
        self.baseURL = api.baseURL
        self.tokens = tokens
        self.userAuthenticator = userAuthenticator
        let powerAuth = AssentPowerAuth(
            api: api, keyStore: keyStore, clock: clock, gate: gate, tokens: tokens, configuration: configuration,
            platform: device.platform)
        self.powerAuth = powerAuth
        let context = NamespaceContext(
            api: api, keyStore: keyStore, clock: clock, device: device, tokens: tokens, gate: gate, powerAuth: powerAuth,
            attestation: DeviceAttestation(api: api, attester: attester))
        self.push = AssentPush(context)
        self.qr = AssentQRCode(context)
    }

    /// Caches `token` (a short-lived token from tracking an action on your backend) for calls that need one and are
    /// not given one, such as ``AssentPush/addCredential(token:userPresenceRequired:userAuthenticationRequired:timeout:authorizationType:pushToken:)``.
    public func setToken(_ token: String) {
        tokens.set(token)
    }

    /// Forgets the cached token.
    public func clearToken() {
        tokens.set(nil)
    }

    /// The cached token, if any.
    public var token: String? { tokens.get() }
}
