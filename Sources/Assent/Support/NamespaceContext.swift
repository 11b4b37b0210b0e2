/// What the push and QR code namespaces share: the client API, the key store, the clock, this device, the cached
/// token, the user-authentication gate, PowerAuth (for answers signed with factors) and device attestation.
struct NamespaceContext: Sendable {
    let api: ClientAPI
    let keyStore: any KeyStore
    let clock: AssentClock
    let device: DeviceInfo
    let tokens: TokenCache
    let gate: UserAuthenticationGate
    let powerAuth: AssentPowerAuth
    let attestation: DeviceAttestation
}
