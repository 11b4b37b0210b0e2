/// Every API route `assentd` serves, each spelled once as `"METHOD /path"`: the server registers its routes from this
/// catalogue and the SDK and the CLI build their request paths from it, so the two sides cannot drift. The case name
/// is the operation's name. The HTML pages (the admin console, the demo pages) are ``PageRoute``, not SDK API.
///
/// A path segment `{name}` stands for one percent-encoded value (``path(_:)`` fills them in). Client API paths are
/// under ``version`` because the official SDKs are configured with a base URL ending in `/v1`
/// (see ``clientPath``).
public enum Endpoint: String, CaseIterable, Sendable, CustomStringConvertible {
    // MARK: Server API (tenant secret key over HTTP Basic)

    case track = "POST /v1/users/{userId}/actions/{action}"
    case getAction = "GET /v1/users/{userId}/actions/{action}/{idempotencyKey}"
    case updateAction = "PATCH /v1/users/{userId}/actions/{action}/{idempotencyKey}"
    case validate = "POST /v1/validate"
    case getUser = "GET /v1/users/{userId}"
    case updateUser = "PATCH /v1/users/{userId}"
    /// ``updateUser`` as Authsignal's older server SDKs (Python 2.x and 3.x) send it: the same operation and handler.
    case updateUserByPost = "POST /v1/users/{userId}"
    case deleteUser = "DELETE /v1/users/{userId}"
    /// Everything Assent holds about a user, for a data-subject request (Assent's own).
    case exportUser = "GET /v1/users/{userId}/export"
    /// Ends a user's push throttle and fraud lock (Assent's own).
    case resetUserPush = "POST /v1/users/{userId}/push/reset"
    case getAuthenticators = "GET /v1/users/{userId}/authenticators"
    case enrollAuthenticator = "POST /v1/users/{userId}/authenticators"
    case deleteAuthenticator = "DELETE /v1/users/{userId}/authenticators/{userAuthenticatorId}"
    case getPushSettings = "GET /v1/tenant/push"
    case updatePushSettings = "PATCH /v1/tenant/push"
    case getAnonymousQRSettings = "GET /v1/tenant/qr-code"
    case updateAnonymousQRSettings = "PATCH /v1/tenant/qr-code"
    /// Every tenant setting (``getPushSettings`` and ``getAnonymousQRSettings`` read subsets).
    case getTenantSettings = "GET /v1/tenant/settings"
    /// Changes tenant settings: the members sent, each checked by its rules before anything changes.
    case updateTenantSettings = "PATCH /v1/tenant/settings"
    case getChallengeTimeline = "GET /v1/challenges/{challengeId}/timeline"
    case getActivation = "GET /v1/activations/{activationId}"
    case getActivations = "GET /v1/users/{userId}/activations"
    case commitActivation = "POST /v1/activations/{activationId}/commit"
    case blockActivation = "POST /v1/activations/{activationId}/block"
    case unblockActivation = "POST /v1/activations/{activationId}/unblock"
    case removeActivation = "DELETE /v1/activations/{activationId}"
    case verifySignature = "POST /v1/signatures/verify"
    /// The tenant's audit log (Assent's own): `since`, `kind`, `limit` and `cursor` query parameters.
    case getAuditLog = "GET /v1/audit"
    /// The tenant's authentication history (Assent's own): filters, a cursor, and CSV or JSON-lines exports.
    case getSignIns = "GET /v1/sign-ins"

    // MARK: Client API: devices (tenant Basic plus a device signature, or a Bearer track token to enrol)

    case getPushCredential = "GET /v1/client/user-authenticators/push"
    case addPushCredential = "POST /v1/client/user-authenticators/push"
    case updatePushCredential = "PATCH /v1/client/user-authenticators/push"
    case removePushCredential = "POST /v1/client/user-authenticators/push/remove"
    /// The nonce a device signs to update its push credential.
    case signPushCredentialUpdate = "POST /v1/client/user-authenticators/push/sign"
    /// The nonce a device signs to fetch its pending push challenge with public custom data.
    case signPushChallengeFetch = "POST /v1/client/user-authenticators/push/challenge/sign"
    case getPushChallenge = "GET /v1/client/user-authenticators/push/challenge"
    case updatePushChallenge = "POST /v1/client/user-authenticators/push/challenge"
    case getQRCodeCredential = "GET /v1/client/user-authenticators/qr-code"
    case addQRCodeCredential = "POST /v1/client/user-authenticators/qr-code"
    case removeQRCodeCredential = "POST /v1/client/user-authenticators/qr-code/remove"
    case claimQRCodeChallenge = "POST /v1/client/user-authenticators/qr-code/challenge/claim"
    case updateQRCodeChallenge = "POST /v1/client/user-authenticators/qr-code/challenge"
    case createActivation = "POST /v1/client/activations"
    case getActivationStatus = "POST /v1/client/activations/status"
    case unlockVault = "POST /v1/client/vault/unlock"
    /// A single-use challenge for the device attestation an enrolment may carry (Bearer enrolment token).
    case createAttestationChallenge = "POST /v1/client/attestation/challenge"

    // MARK: Client API: the initiating page (Bearer track token, or tenant Basic for anonymous QR challenges)

    case startPushChallenge = "POST /v1/client/challenge/push"
    case verifyPushChallenge = "POST /v1/client/verify/push"
    case startQRCodeChallenge = "POST /v1/client/challenge/qr-code"
    case verifyQRCodeChallenge = "POST /v1/client/verify/qr-code"
    case qrCodeImageSVG = "GET /v1/client/challenge/qr-code/{challengeId}/image.svg"
    case qrCodeImagePNG = "GET /v1/client/challenge/qr-code/{challengeId}/image.png"
    /// The QR page's WebSocket (subprotocol `authsignal-ws`).
    case qrCodeWebSocket = "GET /v1/ws-v1-challenge"

    // MARK: Operations

    case health = "GET /healthz"
    /// Liveness: the process answers (nothing else is checked).
    case healthLive = "GET /healthz/live"
    /// Readiness: the store answers and its schema is current; `503 service_unavailable` otherwise.
    case healthReady = "GET /healthz/ready"
    case metrics = "GET /metrics"
    /// A trivial answer through the same router, metrics, rate limiter and access log as every API route: the request
    /// ceiling `assent-bench --scenario hello` measures. `404` unless `assentd --bench-routes`.
    case benchHello = "GET /bench/hello"
    /// The OpenAPI 3.1 document of the API (`openapi/assent.json`, embedded in the server).
    case openAPIDocument = "GET /openapi.json"

    /// The prefix of every API path; the official SDKs' base URL ends with it.
    public static let version = "/v1"

    /// The HTTP method, e.g. `POST`.
    public var method: String { RouteTemplate(rawValue).method }

    /// The path template, e.g. `/v1/users/{userId}`.
    public var path: String { RouteTemplate(rawValue).path }

    /// The path below ``version``, which a client appends to a base URL ending in `/v1`.
    public var clientPath: String {
        precondition(path.hasPrefix(Self.version + "/"), "\(self) is not under \(Self.version)")
        return String(path.dropFirst(Self.version.count))
    }

    /// The path with its `{name}` segments replaced by `values`, in order, as given (the caller percent-encodes them).
    public func path(_ values: [String]) -> String { RouteTemplate(rawValue).path(values) }

    /// `METHOD /path`.
    public var description: String { rawValue }
}
