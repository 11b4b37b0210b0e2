/// The NIST P-256 curve (secp256r1, prime256v1): ECDSA with SHA-256, and ECDH.
public enum P256: Sendable {
    /// Bytes in a field element or scalar.
    static let coordinateByteCount = 32

    /// The group order n, big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// The DER encoding of a SubjectPublicKeyInfo for a named-curve P-256 key with an uncompressed point,
    /// up to and including the BIT STRING's unused-bits byte; the 65-byte point follows.
    ///
    /// DER is a unique encoding, so every valid P-256 SPKI with an uncompressed point starts with exactly
    /// these bytes; anything else (BER lengths, explicit curve parameters, other OIDs, trailing data) is rejected.
    static let spkiUncompressedPrefix: [UInt8] = [
        0x30, 0x59,                                                  // SEQUENCE, 89 bytes
        0x30, 0x13,                                                  //   SEQUENCE (AlgorithmIdentifier), 19 bytes
        0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,        //     OID 1.2.840.10045.2.1 ecPublicKey
        0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07,  //     OID 1.2.840.10045.3.1.7 prime256v1
        0x03, 0x42, 0x00,                                            //   BIT STRING, 66 bytes, 0 unused bits
    ]

    /// As ``spkiUncompressedPrefix`` for a compressed (33-byte) point.
    static let spkiCompressedPrefix: [UInt8] = [
        0x30, 0x39,
        0x30, 0x13,
        0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
        0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07,
        0x03, 0x22, 0x00,
    ]
}
