/// Apple's App Attest service (`DCAppAttestService`) as ``AppAttestFlow`` uses it. The Apple-only
/// `DeviceCheckAppAttestService` implements it; tests use a fake.
package protocol AppAttestService: Sendable {
    /// Whether this device can attest (false in the simulator and on Macs without App Attest).
    var isSupported: Bool { get }
    /// A new App Attest key; answers its key id (base64, as DeviceCheck gives it).
    func generateKey() async throws -> String
    /// Apple's attestation object for key `keyId` over `clientDataHash`.
    func attestKey(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8]
    /// An assertion by key `keyId` over `clientDataHash`.
    func generateAssertion(_ keyId: String, clientDataHash: [UInt8]) async throws -> [UInt8]
}
