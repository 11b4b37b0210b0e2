import AssentCrypto

extension FuzzTarget {
    /// A device's public key as enrolment sends it: DER SubjectPublicKeyInfo, or the bare SEC1 point. A key that
    /// imports exports the canonical SPKI, which imports to the same key.
    static let spki = FuzzTarget(name: "spki") { bytes in
        for key in [try? P256.PublicKey(spkiDER: bytes), try? P256.PublicKey(x962: bytes)].compactMap({ $0 }) {
            let again = try? P256.PublicKey(spkiDER: key.spkiDER)
            precondition(again == key, "an imported key does not survive its own SPKI")
            precondition((try? P256.PublicKey(x962: key.x962Compressed)) == key, "the compressed point is another key")
        }
    }
}
