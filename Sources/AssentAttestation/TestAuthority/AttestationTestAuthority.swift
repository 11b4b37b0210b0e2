package import AssentCrypto

/// A test attestation authority: a root (P-256) and an intermediate under it, issuing App Attest attestation objects
/// and Android key attestation chains bound to any client data hash and key, as Apple's and Google's devices would —
/// for `assent device ... enrol --attest-with DIR`, the end-to-end tests and the README. A server trusts it only when
/// its root is given with `--attestation-roots`; nothing here is trusted by default.
///
/// The Swift twin of `Tests/tools/attestation_test_authority.py` (which writes the verifiers' fixtures): the same
/// structures, following `/work/shared/TESTING.md` ("Device attestation in tests"). Decisions: the intermediate is made
/// anew for every authority value (only the root and its key are kept on disk), intermediates and leaves take the
/// root's validity, and the root is valid from a day before it was made for ten years.
package struct AttestationTestAuthority: Sendable {
    /// The root's key.
    package let rootKey: P256.PrivateKey
    /// The root certificate (DER), self-signed.
    package let rootCertificate: [UInt8]
    /// The intermediate's key, and its certificate (DER) signed by the root.
    let intermediateKey: P256.PrivateKey
    package let intermediateCertificate: [UInt8]
    let intermediateName: [UInt8]
    let validity: [UInt8]

    /// The root's subject.
    static let rootName = TestCertificate.name(commonName: "Assent Test Attestation Root")

    /// Android's key attestation extension (KeyDescription).
    package static let keyDescriptionOID = "1.3.6.1.4.1.11129.2.1.17"
    /// App Attest's nonce extension.
    package static let appAttestNonceOID = "1.2.840.113635.100.8.2"

    /// A new authority: a new root key and a self-signed root valid from a day before `nowSeconds` for ten years.
    package static func create(nowSeconds: Int64) throws -> AttestationTestAuthority {
        let key = P256.PrivateKey()
        let validity = TestCertificate.validity(notBefore: nowSeconds - 86_400, notAfter: nowSeconds + 10 * 365 * 86_400)
        let root = try TestCertificate.issue(
            subject: rootName, subjectKey: key.publicKey, issuer: rootName, issuerKey: key, validity: validity, isCA: true)
        return try AttestationTestAuthority(rootKey: key, rootCertificate: root)
    }

    /// The authority of a root certificate (DER) and its key, with a new intermediate.
    ///
    /// - Throws: ``AttestationError`` (`malformed`) when the certificate does not parse or is not the key's.
    package init(rootKey: P256.PrivateKey, rootCertificate: [UInt8]) throws {
        let parsed = try X509Certificate(der: rootCertificate)
        guard try parsed.publicKeySPKI() == rootKey.publicKey.spkiDER else {
            throw AttestationError(.malformed, "the root certificate is not the key's")
        }
        let (subject, validity) = try TestCertificate.subjectAndValidity(of: rootCertificate)
        self.rootKey = rootKey
        self.rootCertificate = rootCertificate
        self.validity = validity
        intermediateKey = P256.PrivateKey()
        intermediateName = TestCertificate.name(commonName: "Assent Test Attestation Intermediate")
        intermediateCertificate = try TestCertificate.issue(
            subject: intermediateName, subjectKey: intermediateKey.publicKey, issuer: subject, issuerKey: rootKey,
            validity: validity, isCA: true)
    }

    /// The root certificate as PEM, what `assentd --attestation-roots FILE` reads.
    package var rootCertificatePEM: String { PEM.encode(rootCertificate, label: "CERTIFICATE") }

    /// The root's key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    package var rootKeyPEM: String { PEM.encode(TestCertificate.pkcs8(rootKey), label: "PRIVATE KEY") }

    // MARK: App Attest

    /// An App Attest attestation of a new key, committing to `clientDataHash` (Assent's binding hash), for `appId`
    /// (`TEAMID.bundle.id`) in `environment`: the key (kept for assertions), its key id and the CBOR attestation object.
    package func appAttest(
        clientDataHash: [UInt8], appId: String, environment: AppAttestEnvironment = .development
    ) throws -> (key: P256.PrivateKey, keyId: [UInt8], object: [UInt8]) {
        let key = P256.PrivateKey()
        let point = key.publicKey.x962Uncompressed
        let keyId = SHA256.hash(point)
        let cose = CBORWriter.encode(.map([
            CBORMapEntry(key: .unsigned(1), value: .unsigned(2)),
            CBORMapEntry(key: .unsigned(3), value: CBORWriter.integer(-7)),
            CBORMapEntry(key: CBORWriter.integer(-1), value: .unsigned(1)),
            CBORMapEntry(key: CBORWriter.integer(-2), value: .bytes(Array(point[1..<33]))),
            CBORMapEntry(key: CBORWriter.integer(-3), value: .bytes(Array(point[33..<65]))),
        ]))
        let authData = SHA256.hash(Array(appId.utf8)) + [AuthenticatorData.attestedCredentialDataFlag] + [0, 0, 0, 0]
            + environment.aaguid + [UInt8(keyId.count >> 8), UInt8(keyId.count & 0xff)] + keyId + cose
        let nonce = SHA256.hash(authData + clientDataHash)
        let leaf = try TestCertificate.issue(
            subject: TestCertificate.name(commonName: Hex.encode(keyId), organization: nil),
            subjectKey: key.publicKey, issuer: intermediateName, issuerKey: intermediateKey, validity: validity, isCA: false,
            extensions: [(Self.appAttestNonceOID, DERWriter.sequence([DERWriter.explicit(1, DERWriter.octetString(nonce))]))])
        let object = CBORWriter.encode(.map([
            CBORMapEntry(key: .text("fmt"), value: .text("apple-appattest")),
            CBORMapEntry(key: .text("attStmt"), value: .map([
                CBORMapEntry(key: .text("x5c"), value: .array([.bytes(leaf), .bytes(intermediateCertificate)])),
                CBORMapEntry(key: .text("receipt"), value: .bytes(Array("test receipt".utf8))),
            ])),
            CBORMapEntry(key: .text("authData"), value: .bytes(authData)),
        ]))
        return (key, keyId, object)
    }

    /// An App Attest assertion (CBOR `{signature, authenticatorData}`) by the attested `key` for `appId`, with
    /// `counter`, over `clientDataHash`: the signature is ECDSA over SHA-256(authenticatorData ‖ clientDataHash).
    package static func appAttestAssertion(
        key: P256.PrivateKey, appId: String, counter: UInt32, clientDataHash: [UInt8]
    ) throws -> [UInt8] {
        let authData = SHA256.hash(Array(appId.utf8)) + [0]
            + [UInt8(counter >> 24), UInt8(counter >> 16 & 0xff), UInt8(counter >> 8 & 0xff), UInt8(counter & 0xff)]
        let signature = try key.signature(for: SHA256.hash(authData + clientDataHash))
        return CBORWriter.encode(.map([
            CBORMapEntry(key: .text("signature"), value: .bytes(signature)),
            CBORMapEntry(key: .text("authenticatorData"), value: .bytes(authData)),
        ]))
    }

    // MARK: Android

    /// What an Android key attestation says about the key and the device.
    package struct AndroidClaims: Sendable {
        /// The package the attestationApplicationId names.
        package var packageName: String
        /// The SHA-256 digest of the package's signing certificate.
        package var signingCertificateSHA256: [UInt8]
        /// attestationSecurityLevel and keyMintSecurityLevel.
        package var securityLevel: AndroidSecurityLevel = .trustedEnvironment
        /// rootOfTrust's verifiedBootState.
        package var verifiedBootState: AndroidVerifiedBootState = .verified
        /// rootOfTrust's deviceLocked.
        package var deviceLocked = true

        /// Claims of a locked, verified device with a TEE key for `packageName` signed with `signingCertificateSHA256`.
        package init(packageName: String, signingCertificateSHA256: [UInt8]) {
            self.packageName = packageName
            self.signingCertificateSHA256 = signingCertificateSHA256
        }
    }

    /// An Android key attestation chain (DER, leaf first, root last) for `credentialKey` (the leaf's key is it),
    /// whose KeyDescription's attestationChallenge is `challenge` (Assent's binding hash).
    package func androidKey(credentialKey: P256.PublicKey, challenge: [UInt8], claims: AndroidClaims) throws -> [[UInt8]] {
        let applicationId = DERWriter.sequence([
            DERWriter.set([DERWriter.sequence([DERWriter.octetString(Array(claims.packageName.utf8)), DERWriter.integer(7)])]),
            DERWriter.set([DERWriter.octetString(claims.signingCertificateSHA256)]),
        ])
        let software = DERWriter.sequence([DERWriter.explicit(709, DERWriter.octetString(applicationId))])
        let rootOfTrust = DERWriter.sequence([
            DERWriter.octetString([UInt8](repeating: 0x11, count: 32)), DERWriter.boolean(claims.deviceLocked),
            DERWriter.enumerated(Int64(claims.verifiedBootState.rawValue)),
            DERWriter.octetString([UInt8](repeating: 0x22, count: 32)),
        ])
        let hardware = DERWriter.sequence([
            DERWriter.explicit(1, DERWriter.set([DERWriter.integer(2)])),  // purpose: sign
            DERWriter.explicit(2, DERWriter.integer(3)),  // algorithm: EC
            DERWriter.explicit(704, rootOfTrust),
            DERWriter.explicit(705, DERWriter.integer(160_000)),  // osVersion 16
            DERWriter.explicit(706, DERWriter.integer(202_606)),  // osPatchLevel 2026-06
        ])
        let level = Int64(claims.securityLevel.rawValue)
        let description = DERWriter.sequence([
            DERWriter.integer(300), DERWriter.enumerated(level), DERWriter.integer(300), DERWriter.enumerated(level),
            DERWriter.octetString(challenge), DERWriter.octetString([]), software, hardware,
        ])
        let leaf = try TestCertificate.issue(
            subject: TestCertificate.name(commonName: "Android Keystore Key", organization: nil), subjectKey: credentialKey,
            issuer: intermediateName, issuerKey: intermediateKey, validity: validity, isCA: false,
            extensions: [(Self.keyDescriptionOID, description)])
        return [leaf, intermediateCertificate, rootCertificate]
    }
}
