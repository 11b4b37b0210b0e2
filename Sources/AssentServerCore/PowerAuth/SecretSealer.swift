import AssentCrypto

/// Encrypts server-side secrets at rest (PowerAuth master private keys, activation master secrets) with AES-256-GCM
/// under a key derived from a master key ring version. Each sealed value is bound to a context string (what it is and
/// whose), so a sealed value copied to another row does not open.
///
/// Layout under ring version 1 (as before rings existed): `0x01 || nonce (12) || ciphertext || tag (16)`; under ring
/// version N > 1: `0x02 || N (4 bytes, big-endian) || nonce (12) || ciphertext || tag (16)`. New values are sealed
/// under the current version; a retired version opens nothing.
package struct SecretSealer: Sendable {
    private let keys: MasterKeys

    /// A sealer over the 32-byte `masterKey` (a ring of one).
    package init(masterKey: [UInt8]) {
        keys = MasterKeys(MasterKeyRing(single: masterKey))
    }

    /// A sealer whose keys are `HKDF-SHA256(version key, salt "assent sealing key", info "v1")` for each version of the
    /// master key ring `keys`.
    package init(keys: MasterKeys) {
        self.keys = keys
    }

    private static func key(_ masterKey: [UInt8]) -> [UInt8] {
        // HKDF with a fixed 32-byte output cannot fail.
        (try? HKDFSHA256.deriveKey(inputKeyMaterial: masterKey, salt: Array("assent sealing key".utf8),
                                   info: Array("v1".utf8), outputByteCount: 32)) ?? []
    }

    /// Seals `secret` for `context` under the current ring version.
    package func seal(_ secret: [UInt8], context: String) throws -> [UInt8] {
        let ring = keys.current
        let nonce = SecureRandom.bytes(12)
        let (ciphertext, tag) = try AES.GCM.seal(
            secret, key: Self.key(ring.currentKey), nonce: nonce, authenticating: Array(context.utf8))
        let header: [UInt8] = ring.current == 1
            ? [1] : [2] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: ring.current >> ($0 * 8)) }
        return header + nonce + ciphertext + tag
    }

    /// The ring version `sealed` was sealed under and the length of its header; nil for an unknown layout.
    package static func ringVersion(of sealed: [UInt8]) -> (version: Int, headerCount: Int)? {
        switch sealed.first {
        case 1: return (1, 1)
        case 2 where sealed.count >= 5:
            let version = sealed[1..<5].reduce(0) { $0 << 8 | Int($1) }
            return version > 1 ? (version, 5) : nil
        default: return nil
        }
    }

    /// Opens a value sealed for `context`.
    ///
    /// - Throws: `StoreError.corrupt` when it does not open (another master key, another context, a retired ring
    ///   version, or tampering).
    package func open(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        guard let (version, headerCount) = Self.ringVersion(of: sealed), sealed.count >= headerCount + 12 + 16 else {
            throw StoreError(.corrupt, "sealed secret has an unknown layout")
        }
        guard let masterKey = keys.ring(having: version).activeKey(version) else {
            throw StoreError(.corrupt, "a sealed secret is under master key version \(version), which is retired or unknown")
        }
        let nonce = Array(sealed[headerCount..<(headerCount + 12)])
        let ciphertext = Array(sealed[(headerCount + 12)..<(sealed.count - 16)])
        let tag = Array(sealed.suffix(16))
        do {
            return try AES.GCM.open(
                ciphertext, tag: tag, key: Self.key(masterKey), nonce: nonce, authenticating: Array(context.utf8))
        } catch {
            throw StoreError(.corrupt, "a sealed secret does not open under this master key")
        }
    }
}
