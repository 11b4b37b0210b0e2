import AssentCrypto

/// Seals push-provider credentials (an APNs `.p8` key, an FCM service-account file) for storage: AES-256-GCM under a
/// key derived (HKDF-SHA256) from the server's master key, with a fresh 12-byte nonce and the tenant id and purpose as
/// associated data, so a sealed value moved to another tenant or field does not open. Format:
/// `v1.` + base64(nonce ‖ ciphertext ‖ tag).
package struct PushCredentialSealer: Sendable {
    private let key: [UInt8]

    /// A sealer whose key is derived from the 32-byte `masterKey`.
    package init(masterKey: [UInt8]) throws {
        key = try HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, salt: [], info: Array("assent push credentials v1".utf8), outputByteCount: 32)
    }

    /// Seals `plaintext` for `purpose` (`apns` or `fcm`) of `tenantID`.
    package func seal(_ plaintext: String, tenantID: String, purpose: String) throws -> String {
        let nonce = SecureRandom.bytes(12)
        let (ciphertext, tag) = try AES.GCM.seal(
            Array(plaintext.utf8), key: key, nonce: nonce, authenticating: Self.aad(tenantID, purpose))
        return "v1." + Base64.encode(nonce + ciphertext + tag)
    }

    /// Opens what ``seal(_:tenantID:purpose:)`` made; fails when the master key, tenant or purpose differ.
    package func open(_ sealed: String, tenantID: String, purpose: String) throws -> String {
        guard sealed.hasPrefix("v1."), let bytes = Base64.decode(String(sealed.dropFirst(3))), bytes.count >= 12 + 16 else {
            throw AssentError(.internalError, "A sealed push credential is malformed.")
        }
        let nonce = Array(bytes[..<12])
        let tag = Array(bytes[(bytes.count - 16)...])
        let ciphertext = Array(bytes[12..<(bytes.count - 16)])
        let plaintext = try AES.GCM.open(
            ciphertext, tag: tag, key: key, nonce: nonce, authenticating: Self.aad(tenantID, purpose))
        return String(decoding: plaintext, as: UTF8.self)
    }

    private static func aad(_ tenantID: String, _ purpose: String) -> [UInt8] {
        Array("assent push credential/\(tenantID)/\(purpose)".utf8)
    }
}
