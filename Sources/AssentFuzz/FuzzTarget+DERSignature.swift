import AssentCrypto

extension FuzzTarget {
    /// An ECDSA signature as devices send it (DER) and as ES256 tokens carry it (raw `r || s`). Strict DER has one
    /// encoding per signature, so what decodes encodes back to the same bytes; the bytes are also verified, as a
    /// device's answer is, against a fixed key.
    static let derSignature = FuzzTarget(name: "der-signature") { bytes in
        if let raw = ECDSASignature.raw(fromDER: bytes) {
            precondition(raw.count == ECDSASignature.rawByteCount, "a decoded signature is not 64 bytes")
            precondition(ECDSASignature.der(fromRaw: raw) == bytes, "a decoded signature has a second DER encoding")
        }
        if let der = ECDSASignature.der(fromRaw: bytes) {
            precondition(ECDSASignature.raw(fromDER: der) == bytes, "an encoded signature does not decode to itself")
        }
        _ = verifyingKey.isValidSignature(bytes, for: [0x61, 0x73, 0x73, 0x65, 0x6e, 0x74])
    }

    /// A key made once per run (nothing a fuzzer finds depends on which).
    private static let verifyingKey = P256.PrivateKey().publicKey
}
