import AssentCrypto
import AssentWire

extension DeviceKey {
    /// Whether `signature` verifies for a credential speaking `scheme`: a bound credential's only over the `bound`
    /// message (no downgrade to Authsignal's); a compatible one's over Authsignal's `compatible` message or, from an
    /// Assent SDK that enrolled before it spoke bound, the `bound` one (which never equals an Authsignal message: it
    /// starts `assent-bound-v1`).
    func verifies(_ signature: String?, as scheme: SignatureScheme, compatible: String, bound: String) -> Bool {
        switch scheme {
        case .bound: verifies(signature, message: bound)
        case .compatible: verifies(signature, message: compatible) || verifies(signature, message: bound)
        }
    }

    /// A name for a verified `signature` by this key that whoever replays it cannot change: SHA-256 of the key and
    /// the signature's `r`. `r` fixes the signer's random nonce, so re-encoding the DER or negating `s` (ECDSA's
    /// malleability) names the same signature, and only the key's holder makes another. It names no tenant: one key
    /// may hold credentials in several tenants, and Authsignal's removal message (the time window) verifies in each,
    /// so a removal signature spent in one must be spent in all. Nil when the signature is not strict DER (OpenSSL
    /// verifies only strict DER, so a verified one always is).
    func digest(ofVerified signature: String) -> [UInt8]? {
        guard let raw = rawSignature(signature) else { return nil }
        return SHA256.hash(Array("assent spent signature v2".utf8) + [0] + der + [0] + Array(raw.prefix(32)))
    }

    /// The name earlier `assentd` versions spent a removal signature under: SHA-256 of `tenantID`, the key and `r`.
    /// Still recorded and checked beside ``digest(ofVerified:)``, so a signature spent by an older instance (sharing
    /// PostgreSQL during a rolling upgrade, or just before an upgrade, within its window) stays spent, and one spent
    /// here stays spent for an older instance in the same tenant.
    func tenantDigest(ofVerified signature: String, tenantID: String) -> [UInt8]? {
        guard let raw = rawSignature(signature) else { return nil }
        return SHA256.hash(Array(tenantID.utf8) + [0] + der + [0] + Array(raw.prefix(32)))
    }

    private func rawSignature(_ signature: String) -> [UInt8]? {
        Base64.decode(signature).flatMap { ECDSASignature.raw(fromDER: $0) }
    }
}
