/// What a stranger can reach, each with its own bucket per subject (a client address, tenant, user, credential key or
/// activation). The defaults let a real deployment run as it is: a person, a phone and a page stay far below them,
/// while a flood from one address or against one tenant or key is refused `429 rate_limited` early, before any store.
/// Limits are per `assentd` instance.
package enum RateLimitRule: String, CaseIterable, Sendable, Hashable {
    /// Anonymous QR starts (tenant id only, HTTP or WebSocket) from one client address.
    case anonymousQRStartAddress = "anonymous-qr-start-address"
    /// Anonymous QR starts for one tenant, from every address together (the flood of V2).
    case anonymousQRStartTenant = "anonymous-qr-start-tenant"
    /// Push and QR starts with a track token, per user.
    case startUser = "start-user"
    /// Signing nonces (`push/sign` for get-challenge and for credential updates) per credential key.
    case nonceKey = "nonce-key"
    /// Signing nonces from one client address.
    case nonceAddress = "nonce-address"
    /// Get-challenge (a device's pending push) per credential key.
    case getChallengeKey = "get-challenge-key"
    /// Get-challenge from one client address.
    case getChallengeAddress = "get-challenge-address"
    /// QR claims per credential key.
    case claimKey = "claim-key"
    /// QR claims from one client address.
    case claimAddress = "claim-address"
    /// Activation status requests per activation.
    case activationStatusActivation = "activation-status-activation"
    /// Activation status requests from one client address.
    case activationStatusAddress = "activation-status-address"
    /// Vault unlocks per activation.
    case vaultUnlockActivation = "vault-unlock-activation"
    /// Vault unlocks from one client address.
    case vaultUnlockAddress = "vault-unlock-address"
    /// PowerAuth signatures that failed on a client endpoint (vault unlock, an approval's factor proof), per activation:
    /// guessing that no failure counter sees (possession-only signatures, unknown activations) is throttled here.
    case failedVerificationActivation = "failed-verification-activation"
    /// WebSocket connections opened from one client address.
    case webSocketAddress = "websocket-address"
    /// `GET /bench/hello` from one client address (served only with `--bench-routes`).
    case benchHelloAddress = "bench-hello-address"
    /// Admin console sign-in attempts from one client address (accepted or not).
    case consoleSignInAddress = "console-sign-in-address"
    /// Attestation challenges (`POST /v1/client/attestation/challenge`) per user of a tenant: each is a stored row.
    case attestationChallengeUser = "attestation-challenge-user"
    /// Attestation challenges from one client address (also with tokens that do not verify).
    case attestationChallengeAddress = "attestation-challenge-address"

    /// The limit used unless the operator sets another.
    package var defaultLimit: RateLimit {
        switch self {
        case .anonymousQRStartAddress: RateLimit(count: 30, periodSeconds: 60)
        case .anonymousQRStartTenant: RateLimit(count: 1200, periodSeconds: 60)
        case .startUser: RateLimit(count: 30, periodSeconds: 60)
        case .nonceKey: RateLimit(count: 30, periodSeconds: 60)
        case .nonceAddress: RateLimit(count: 300, periodSeconds: 60)
        case .getChallengeKey: RateLimit(count: 60, periodSeconds: 60)
        case .getChallengeAddress: RateLimit(count: 600, periodSeconds: 60)
        case .claimKey: RateLimit(count: 30, periodSeconds: 60)
        case .claimAddress: RateLimit(count: 120, periodSeconds: 60)
        case .activationStatusActivation: RateLimit(count: 60, periodSeconds: 60)
        case .activationStatusAddress: RateLimit(count: 300, periodSeconds: 60)
        case .vaultUnlockActivation: RateLimit(count: 10, periodSeconds: 60)
        case .vaultUnlockAddress: RateLimit(count: 60, periodSeconds: 60)
        case .failedVerificationActivation: RateLimit(count: 10, periodSeconds: 600)
        case .webSocketAddress: RateLimit(count: 60, periodSeconds: 60)
        case .benchHelloAddress: RateLimit(count: 600, periodSeconds: 60)
        case .consoleSignInAddress: RateLimit(count: 10, periodSeconds: 60)
        case .attestationChallengeUser: RateLimit(count: 10, periodSeconds: 60)
        case .attestationChallengeAddress: RateLimit(count: 120, periodSeconds: 60)
        }
    }
}
