package import AssentCrypto

/// X.509 v3 certificates as the test attestation authority issues them, written with ``DERWriter`` and signed with
/// ECDSA P-256 / SHA-256 through AssentCrypto (so building one needs no X.509 calls into OpenSSL; the verifiers parse
/// what it writes with OpenSSL, which is the point of a test authority).
///
/// Mirrors `Tests/tools/attestation_test_authority.py`: names of an organization and a common name, a random
/// positive serial, a critical BasicConstraints, for a CA a critical KeyUsage (keyCertSign, cRLSign), and any vendor
/// extension (App Attest's nonce, Android's KeyDescription) non-critical.
package enum TestCertificate {
    /// `ecdsa-with-SHA256`.
    static let signatureAlgorithm = DERWriter.sequence([DERWriter.objectIdentifier("1.2.840.10045.4.3.2")])

    /// A Name of `organization` (when given) and `commonName`, each in its own RDN.
    package static func name(commonName: String, organization: String? = "Assent test authority") -> [UInt8] {
        func rdn(_ oid: String, _ value: String) -> [UInt8] {
            DERWriter.set([DERWriter.sequence([DERWriter.objectIdentifier(oid), DERWriter.utf8String(value)])])
        }
        return DERWriter.sequence((organization.map { [rdn("2.5.4.10", $0)] } ?? []) + [rdn("2.5.4.3", commonName)])
    }

    /// The Validity SEQUENCE from `notBefore` to `notAfter` (seconds since the epoch).
    package static func validity(notBefore: Int64, notAfter: Int64) -> [UInt8] {
        DERWriter.sequence([DERWriter.time(notBefore), DERWriter.time(notAfter)])
    }

    /// A certificate (DER) for `subjectKey`, issued under `issuer` (a Name) and signed by `issuerKey`.
    ///
    /// - Parameters:
    ///   - extensions: vendor extensions, (OID, the extension value's DER), added non-critical after the basic ones.
    package static func issue(
        subject: [UInt8], subjectKey: P256.PublicKey, issuer: [UInt8], issuerKey: P256.PrivateKey, validity: [UInt8],
        isCA: Bool, extensions: [(oid: String, value: [UInt8])] = []
    ) throws -> [UInt8] {
        func ext(_ oid: String, critical: Bool, _ value: [UInt8]) -> [UInt8] {
            DERWriter.sequence(
                [DERWriter.objectIdentifier(oid)] + (critical ? [DERWriter.boolean(true)] : []) + [DERWriter.octetString(value)])
        }
        var all = [ext("2.5.29.19", critical: true, DERWriter.sequence(isCA ? [DERWriter.boolean(true)] : []))]
        if isCA {
            // keyCertSign (bit 5) and cRLSign (bit 6): one byte 0000 0110, its last bit unused.
            all.append(ext("2.5.29.15", critical: true, DERWriter.bitString([0x06], unusedBits: 1)))
        }
        all += extensions.map { ext($0.oid, critical: false, $0.value) }
        var serial = SecureRandom.bytes(16)
        serial[0] = serial[0] & 0x7f | 0x01  // positive, 16 bytes, never zero
        let tbs = DERWriter.sequence([
            DERWriter.explicit(0, DERWriter.integer(2)),  // v3
            DERWriter.integer(unsigned: serial),
            signatureAlgorithm,
            issuer,
            validity,
            subject,
            subjectKey.spkiDER,
            DERWriter.explicit(3, DERWriter.sequence(all)),
        ])
        let signature = try issuerKey.signature(for: tbs)
        return DERWriter.sequence([tbs, signatureAlgorithm, DERWriter.bitString(signature)])
    }

    /// The subject Name and the Validity of a certificate (DER), as its TBSCertificate holds them.
    package static func subjectAndValidity(of der: [UInt8]) throws(AttestationError) -> (subject: [UInt8], validity: [UInt8]) {
        guard let tbsNode = try DERReader.parse(der).sequence().first else {
            throw AttestationError(.malformed, "a certificate without a TBSCertificate")
        }
        let tbs = try tbsNode.sequence()
        // [0] version (optional), serialNumber, signature, issuer, validity, subject, ...
        let offset = tbs.first?.isContext(0) == true ? 1 : 0
        guard tbs.count >= offset + 5 else { throw AttestationError(.malformed, "a TBSCertificate too short") }
        return (DERWriter.element(tbs[offset + 4]), DERWriter.element(tbs[offset + 3]))
    }

    /// PKCS#8 `PrivateKeyInfo` DER of a P-256 key (an RFC 5915 ECPrivateKey with its public point), what
    /// `P256.PrivateKey(pkcs8DER:)` and `openssl pkey` read.
    package static func pkcs8(_ key: P256.PrivateKey) -> [UInt8] {
        let ecPrivateKey = DERWriter.sequence([
            DERWriter.integer(1),
            DERWriter.octetString(key.rawRepresentation),
            DERWriter.explicit(1, DERWriter.bitString(key.publicKey.x962Uncompressed)),
        ])
        return DERWriter.sequence([
            DERWriter.integer(0),
            DERWriter.sequence([DERWriter.objectIdentifier("1.2.840.10045.2.1"), DERWriter.objectIdentifier("1.2.840.10045.3.1.7")]),
            DERWriter.octetString(ecPrivateKey),
        ])
    }
}
