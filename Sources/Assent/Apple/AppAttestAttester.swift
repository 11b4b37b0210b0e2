#if canImport(DeviceCheck)
public import AssentWire

/// The ``Attester`` of iOS: Apple App Attest. Each enrolment attests a new App Attest key over the binding hash (the
/// server's `clientDataHash`); the key id is kept in the key store (the Keychain) for assertions. Where the device
/// cannot attest (``isSupported`` false: the simulator, Macs without App Attest) ``attest(challenge:bindingHash:)``
/// throws ``AppAttestError`` `unsupported`, so the app knows and enrols without attestation.
///
/// Needs the App Attest capability (`com.apple.developer.devicecheck.appattest-environment`, docs/apple.md). All the
/// logic is ``AppAttestFlow`` (shared, tested on Linux); this type only plugs in DeviceCheck.
///
/// Apple-only (checked by reading; see docs/apple.md). It calls no Apple API itself: `DeviceCheckAppAttestService`
/// names DeviceCheck's pages.
public struct AppAttestAttester: Attester {
    private let flow: AppAttestFlow

    /// An attester keeping its key id in `keyStore` (the SDK's ``KeychainKeyStore`` on Apple platforms).
    public init(keyStore: any KeyStore) {
        flow = AppAttestFlow(service: DeviceCheckAppAttestService(), keyStore: keyStore)
    }

    /// Whether this device can attest; false means enrolments carry no attestation.
    public var isSupported: Bool { flow.isSupported }

    /// An `apple-appattest` statement for `challenge` over `bindingHash`.
    public func attest(challenge: String, bindingHash: [UInt8]) async throws -> AttestationStatement {
        try await flow.attest(challenge: challenge, bindingHash: bindingHash)
    }

    /// Base64 of an assertion over `clientDataHash`, or nil before any attestation on this device.
    public func assertion(clientDataHash: [UInt8]) async throws -> String? {
        try await flow.assertion(clientDataHash: clientDataHash)
    }
}

#endif
