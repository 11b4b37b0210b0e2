import AssentCrypto

/// Encrypts server-side secrets at rest (PowerAuth master private keys, activation master secrets) with AES-256-GCM
/// under a key derived from the server master key. Each sealed value is bound to a context string (what it is and
/// whose), so a sealed value copied to another row does not open.
///
/// Layout: `0x01 || nonce (12) || ciphertext || tag (16)`.
package struct SecretSealer: Sendable {
    private let key: [UInt8]
    private static let version: UInt8 = 1

    /// A sealer whose key is `HKDF-SHA256(masterKey, salt "assent sealing key", info "v1")`.
    package init(masterKey: [UInt8]) {
        // HKDF with a fixed 32-byte output cannot fail.
        key = (try? HKDFSHA256.deriveKey(inputKeyMaterial: masterKey, salt: Array("assent sealing key".utf8),
                                         info: Array("v1".utf8), outputByteCount: 32)) ?? []
    }

    /// Seals `secret` for `context`.
    package func seal(_ secret: [UInt8], context: String) throws -> [UInt8] {
        let nonce = SecureRandom.bytes(12)
        let (ciphertext, tag) = try AES.GCM.seal(secret, key: key, nonce: nonce, authenticating: Array(context.utf8))
        return [Self.version] + nonce + ciphertext + tag
    }

    /// Opens a value sealed for `context`.
    ///
    /// - Throws: `StoreError.corrupt` when it does not open (another master key, another context, or tampering).
    package func open(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        guard sealed.count >= 1 + 12 + 16, sealed[0] == Self.version else {
            throw StoreError(.corrupt, "sealed secret has an unknown layout")
        }
        let nonce = Array(sealed[1..<13])
        let ciphertext = Array(sealed[13..<(sealed.count - 16)])
        let tag = Array(sealed.suffix(16))
        do {
            return try AES.GCM.open(ciphertext, tag: tag, key: key, nonce: nonce, authenticating: Array(context.utf8))
        } catch {
            throw StoreError(.corrupt, "a sealed secret does not open under this master key")
        }
    }
}
