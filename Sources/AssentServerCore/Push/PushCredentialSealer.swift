import AssentCrypto

/// Seals push-provider credentials (an APNs `.p8` key, an FCM service-account file) for storage: AES-256-GCM under a
/// key derived (HKDF-SHA256) from a master key ring version, with a fresh 12-byte nonce and the tenant id and purpose
/// as associated data, so a sealed value moved to another tenant or field does not open. Format:
/// `v1.` + base64(nonce ‖ ciphertext ‖ tag) under ring version 1 (as before rings existed), `k<N>.` + the same under
/// ring version N. New values are sealed under the current version; a retired version opens nothing.
package struct PushCredentialSealer: Sendable {
    private let keys: MasterKeys

    /// A sealer whose key is derived from the 32-byte `masterKey` (a ring of one).
    package init(masterKey: [UInt8]) throws {
        keys = MasterKeys(MasterKeyRing(single: masterKey))
    }

    /// A sealer whose keys are derived from the master key ring `keys`.
    package init(keys: MasterKeys) {
        self.keys = keys
    }

    private static func key(_ masterKey: [UInt8]) throws -> [UInt8] {
        try HKDFSHA256.deriveKey(
            inputKeyMaterial: masterKey, salt: [], info: Array("assent push credentials v1".utf8), outputByteCount: 32)
    }

    /// Seals `plaintext` for `purpose` (`apns` or `fcm`) of `tenantID` under the current ring version.
    package func seal(_ plaintext: String, tenantID: String, purpose: String) throws -> String {
        let ring = keys.current
        let nonce = SecureRandom.bytes(12)
        let (ciphertext, tag) = try AES.GCM.seal(
            Array(plaintext.utf8), key: try Self.key(ring.currentKey), nonce: nonce,
            authenticating: Self.aad(tenantID, purpose))
        return (ring.current == 1 ? "v1." : "k\(ring.current).") + Base64.encode(nonce + ciphertext + tag)
    }

    /// The ring version `sealed` was sealed under; nil when it is malformed.
    package static func ringVersion(of sealed: String) -> Int? {
        if sealed.hasPrefix("v1.") { return 1 }
        guard sealed.hasPrefix("k"), let dot = sealed.firstIndex(of: "."),
              let version = Int(sealed[sealed.index(after: sealed.startIndex)..<dot]), version > 1
        else { return nil }
        return version
    }

    /// Opens what ``seal(_:tenantID:purpose:)`` made; fails when the master key, tenant or purpose differ, or when the
    /// ring version it was sealed under is retired.
    package func open(_ sealed: String, tenantID: String, purpose: String) throws -> String {
        guard let version = Self.ringVersion(of: sealed), let dot = sealed.firstIndex(of: "."),
              let bytes = Base64.decode(String(sealed[sealed.index(after: dot)...])), bytes.count >= 12 + 16
        else {
            throw AssentError(.internalError, "A sealed push credential is malformed.")
        }
        guard let masterKey = keys.ring(having: version).activeKey(version) else {
            throw AssentError(.internalError, "A sealed push credential is under master key version \(version), which is retired or unknown.")
        }
        let nonce = Array(bytes[..<12])
        let tag = Array(bytes[(bytes.count - 16)...])
        let ciphertext = Array(bytes[12..<(bytes.count - 16)])
        let plaintext = try AES.GCM.open(
            ciphertext, tag: tag, key: try Self.key(masterKey), nonce: nonce, authenticating: Self.aad(tenantID, purpose))
        return String(decoding: plaintext, as: UTF8.self)
    }

    /// `sealed` opened and sealed again under the current ring version; nil when it already is under it.
    package func resealed(_ sealed: String, tenantID: String, purpose: String) throws -> String? {
        guard Self.ringVersion(of: sealed) != keys.current.current else { return nil }
        return try seal(try open(sealed, tenantID: tenantID, purpose: purpose), tenantID: tenantID, purpose: purpose)
    }

    private static func aad(_ tenantID: String, _ purpose: String) -> [UInt8] {
        Array("assent push credential/\(tenantID)/\(purpose)".utf8)
    }
}
