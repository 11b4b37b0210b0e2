import AssentCrypto
import AssentWire

extension ActivationService {
    /// Vault unlock: after a valid `possession_knowledge` (or `possession_knowledge_biometry`) signature over the
    /// request by an activation of `tenant`, the vault key encrypted under the transport key (AES-CBC, zero IV).
    package func vaultUnlock(tenant: Tenant, header value: String?, body: [UInt8]) async throws -> [UInt8] {
        let header = try Self.parse(value)
        guard header.signatureType == .possessionKnowledge || header.signatureType == .possessionKnowledgeBiometry else {
            throw AssentError(.factorRequired, "Vault unlock needs a possession_knowledge signature.")
        }
        let verified = try await verifyClient(
            tenant: tenant, method: "POST", uriID: PowerAuthURI.vaultUnlock, body: body, header: header)
        let keys = try keys(of: verified)
        return try AES.CBC.encrypt(keys.vault, key: keys.transport, iv: [UInt8](repeating: 0, count: 16), padding: true)
    }
}
