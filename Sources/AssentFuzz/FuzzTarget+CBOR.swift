import AssentAttestation

extension FuzzTarget {
    /// CBOR as App Attest objects and assertions carry it: the reader either refuses or returns an item, and whatever
    /// decodes is also fed to both App Attest verifiers (which must refuse with a named step, never trap).
    static let cbor = FuzzTarget(name: "cbor") { bytes in
        guard let value = try? CBORReader.decode(bytes) else { return }
        if case .map(let entries) = value {
            precondition(Set(entries.map(\.key)).count == entries.count, "a decoded map repeats a key")
        }
        let verifier = AppAttestVerifier()
        _ = try? verifier.verifyAttestation(bytes, keyId: [UInt8](repeating: 0, count: 32), clientDataHash: [1, 2, 3],
                                            policy: AppAttestPolicy(appIds: ["TEAMID.dev.assent"]), nowMilliseconds: 1_700_000_000_000)
        _ = try? AppAttestAssertionVerifier().verify(bytes, clientDataHash: [1, 2, 3], publicKey: assertionKey,
                                                      appIds: ["TEAMID.dev.assent"], lastCounter: 0)
    }

    /// A fixed P-256 point (the generator) to verify assertions with.
    private static let assertionKey: [UInt8] = [0x04]
        + [0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40, 0xf2,
           0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96]
        + [0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a, 0x7c, 0x0f, 0x9e, 0x16,
           0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5]
}
