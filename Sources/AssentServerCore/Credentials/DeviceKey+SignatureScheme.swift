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

    /// A name for a verified `signature` by this key in `tenantID` that whoever replays it cannot change: SHA-256 of
    /// the tenant, the key and the signature's `r`. `r` fixes the signer's random nonce, so re-encoding the DER or
    /// negating `s` (ECDSA's malleability) names the same signature, and only the key's holder makes another. Nil
    /// when the signature is not strict DER (OpenSSL verifies only strict DER, so a verified one always is).
    func digest(ofVerified signature: String, tenantID: String) -> [UInt8]? {
        guard let bytes = Base64.decode(signature), let raw = ECDSASignature.raw(fromDER: bytes) else { return nil }
        return SHA256.hash(Array(tenantID.utf8) + [0] + der + [0] + Array(raw.prefix(32)))
    }
}
