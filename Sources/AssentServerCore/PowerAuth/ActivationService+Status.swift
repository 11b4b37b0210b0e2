import AssentCrypto
import AssentWire

extension ActivationService {
    /// The encrypted status blob of the tenant's activation `activationID` for the device's 16-byte `challenge`.
    /// Another tenant's activation is as unknown as one that does not exist (`404 activation_not_found`).
    package func status(tenant: Tenant, activationID: String, challenge: String) async throws -> ActivationStatusBlob {
        guard let challengeBytes = Base64.decode(challenge), challengeBytes.count == 16 else {
            throw AssentError(.invalidRequest, "challenge must be Base64 of 16 bytes.")
        }
        guard let activation = try await store.activation(id: activationID.lowercased()), activation.tenantID == tenant.id else {
            throw AssentError(.activationNotFound, "No such activation.")
        }
        let maxFailed = tenant.settings.maxFailedAttempts
        let transport = try keys(of: activation).transport
        let status = PowerAuthActivationStatus(
            status: activation.status.code, counterByte: UInt8(truncatingIfNeeded: activation.counter),
            failedAttempts: UInt8(clamping: activation.failedAttempts), maxFailedAttempts: UInt8(clamping: maxFailed),
            lookAhead: UInt8(lookAhead),
            counterDataHash: try PowerAuthStatusBlob.counterDataHash(transportKey: transport, counterData: activation.counterData))
        let nonce = SecureRandom.bytes(16)
        let blob = try PowerAuthStatusBlob.encrypt(status, transportKey: transport, challenge: challengeBytes, nonce: nonce)
        return ActivationStatusBlob(encrypted: blob, nonce: nonce)
    }
}
