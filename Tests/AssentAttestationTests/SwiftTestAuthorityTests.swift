import AssentCrypto
import AssentWire
import Testing

@testable import AssentAttestation

/// The Swift test authority (what `assent device ... --attest-with` uses) makes what the real verifiers accept, and each
/// claim it changes is refused at its own step; its DER and CBOR writers write what the strict readers read back.
@Suite struct SwiftTestAuthorityTests {
    static let now: Int64 = 1_796_018_555  // 2026-11-30T06:02:35Z
    static let package = "dev.assent.example"
    static let digest = SHA256.hash(Array("assent test signing certificate".utf8))
    static let appId = "TESTTEAM01.dev.assent.example"

    let authority: AttestationTestAuthority
    let anchors: AttestationTrustAnchors

    init() throws {
        authority = try AttestationTestAuthority.create(nowSeconds: Self.now)
        anchors = try AttestationTrustAnchors.pinned.adding(pemBundle: authority.rootCertificatePEM)
    }

    private func verifyAndroid(
        _ chain: [[UInt8]], key: P256.PublicKey, challenge: [UInt8], anchors: AttestationTrustAnchors? = nil
    ) throws(AttestationError) -> AndroidKeyVerdict {
        try AndroidKeyAttestationVerifier(trustAnchors: anchors ?? self.anchors).verify(
            certificateChain: chain,
            policy: AndroidKeyAttestationPolicy(
                challenge: challenge, credentialPublicKey: key.spkiDER,
                packages: [AndroidPackage(packageName: Self.package, signingCertificateSHA256: [Self.digest])]),
            statusList: nil, nowMilliseconds: Self.now * 1000)
    }

    private func claims() -> AttestationTestAuthority.AndroidClaims {
        .init(packageName: Self.package, signingCertificateSHA256: Self.digest)
    }

    @Test func `an android-key chain of the authority verifies, naming the package, TEE, a verified boot and the OS`() throws {
        let key = P256.PrivateKey().publicKey
        let binding = AttestationBinding.bindingHash(challenge: "c", publicKey: Base64.encode(key.spkiDER))
        let chain = try authority.androidKey(credentialKey: key, challenge: binding, claims: claims())
        #expect(chain.count == 3 && chain[2] == authority.rootCertificate)
        let verdict = try verifyAndroid(chain, key: key, challenge: binding)
        #expect(verdict.packageName == Self.package)
        #expect(verdict.attestationSecurityLevel == .trustedEnvironment && verdict.keyMintSecurityLevel == .trustedEnvironment)
        #expect(verdict.verifiedBootState == .verified && verdict.deviceLocked)
        #expect(verdict.osVersion == 160_000 && verdict.osPatchLevel == 202_606)
        #expect(verdict.publicKey == key.spkiDER)
    }

    @Test func `each changed android claim is refused at its own step`() throws {
        let key = P256.PrivateKey().publicKey
        let binding = SHA256.hash(Array("binding".utf8))
        func refusal(_ change: (inout AttestationTestAuthority.AndroidClaims) -> Void) throws -> AttestationError.Code? {
            var changed = claims()
            change(&changed)
            let chain = try authority.androidKey(credentialKey: key, challenge: binding, claims: changed)
            do throws(AttestationError) {
                _ = try verifyAndroid(chain, key: key, challenge: binding)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(try refusal { $0.securityLevel = .software } == .securityLevel)
        #expect(try refusal { $0.verifiedBootState = .unverified } == .bootState)
        #expect(try refusal { $0.deviceLocked = false } == .bootState)
        #expect(try refusal { $0.packageName = "com.example.other" } == .appId)
        #expect(try refusal { $0.signingCertificateSHA256 = SHA256.hash([1]) } == .appId)
        #expect(try refusal { _ in } == nil)

        let chain = try authority.androidKey(credentialKey: key, challenge: binding, claims: claims())
        #expect(throws: AttestationError(.challenge, "")) { try verifyAndroid(chain, key: key, challenge: SHA256.hash([2])) }
        #expect(throws: AttestationError(.publicKey, "")) {
            try verifyAndroid(chain, key: P256.PrivateKey().publicKey, challenge: binding)
        }
        #expect(throws: AttestationError(.root, "")) { try verifyAndroid(chain, key: key, challenge: binding, anchors: .pinned) }
    }

    @Test func `an App Attest object of the authority verifies in development, and its assertions count up`() throws {
        let clientDataHash = AttestationBinding.bindingHash(challenge: "c", publicKey: "BKey")
        let made = try authority.appAttest(clientDataHash: clientDataHash, appId: Self.appId)
        let verifier = AppAttestVerifier(trustAnchors: anchors)
        let verdict = try verifier.verifyAttestation(
            made.object, keyId: made.keyId, clientDataHash: clientDataHash,
            policy: AppAttestPolicy(appIds: [Self.appId], environments: [.development]), nowMilliseconds: Self.now * 1000)
        #expect(verdict.appId == Self.appId && verdict.environment == .development)
        #expect(verdict.keyId == SHA256.hash(made.key.publicKey.x962Uncompressed))

        #expect(throws: AttestationError(.environment, "")) {
            try verifier.verifyAttestation(
                made.object, keyId: made.keyId, clientDataHash: clientDataHash,
                policy: AppAttestPolicy(appIds: [Self.appId], environments: [.production]), nowMilliseconds: Self.now * 1000)
        }
        #expect(throws: AttestationError(.nonce, "")) {
            try verifier.verifyAttestation(
                made.object, keyId: made.keyId, clientDataHash: SHA256.hash([0]),
                policy: AppAttestPolicy(appIds: [Self.appId], environments: [.development]), nowMilliseconds: Self.now * 1000)
        }
        #expect(throws: AttestationError(.validity, "")) {
            try verifier.verifyAttestation(
                made.object, keyId: made.keyId, clientDataHash: clientDataHash,
                policy: AppAttestPolicy(appIds: [Self.appId], environments: [.development]),
                nowMilliseconds: (Self.now + 11 * 365 * 86_400) * 1000)
        }

        let message = SHA256.hash(Array("a bound decision message".utf8))
        let assertion = try AttestationTestAuthority.appAttestAssertion(
            key: made.key, appId: Self.appId, counter: 1, clientDataHash: message)
        let asserted = try AppAttestAssertionVerifier().verify(
            assertion, clientDataHash: message, publicKey: verdict.publicKey, appIds: [Self.appId], lastCounter: 0)
        #expect(asserted.counter == 1)
        #expect(throws: AttestationError(.counter, "")) {
            try AppAttestAssertionVerifier().verify(
                assertion, clientDataHash: message, publicKey: verdict.publicKey, appIds: [Self.appId], lastCounter: 1)
        }
    }

    @Test func `an authority read back from its PEM files issues under the same root`() throws {
        let key = try P256.PrivateKey(pkcs8PEM: authority.rootKeyPEM)
        #expect(key.publicKey == authority.rootKey.publicKey)
        let root = try #require(PEM.der(from: authority.rootCertificatePEM, label: "CERTIFICATE"))
        let reloaded = try AttestationTestAuthority(rootKey: key, rootCertificate: root)
        #expect(reloaded.intermediateCertificate != authority.intermediateCertificate)
        let credential = P256.PrivateKey().publicKey
        let chain = try reloaded.androidKey(credentialKey: credential, challenge: [7], claims: claims())
        #expect(try verifyAndroid(chain, key: credential, challenge: [7]).packageName == Self.package)
        #expect(throws: (any Error).self) {
            try AttestationTestAuthority(rootKey: P256.PrivateKey(), rootCertificate: root)
        }
    }

    @Test func `the DER writer writes what the strict reader reads back`() throws {
        for value: Int64 in [0, 1, 127, 128, 255, 256, 300, 160_000, -1, -128, -129, .max, .min] {
            #expect(try DERReader.parse(DERWriter.integer(value)).integer() == value)
            #expect(try DERReader.parse(DERWriter.enumerated(value)).enumerated() == value)
        }
        #expect(DERWriter.integer(128) == [0x02, 0x02, 0x00, 0x80])
        #expect(DERWriter.integer(unsigned: [0x00, 0x00, 0x9f]) == [0x02, 0x02, 0x00, 0x9f])
        for oid in ["1.3.6.1.4.1.11129.2.1.17", "1.2.840.113635.100.8.2", "2.5.29.19", "2.999.3"] {
            #expect(try DERReader.parse(DERWriter.objectIdentifier(oid)).objectIdentifier() == oid)
        }
        #expect(Array(DERWriter.explicit(704, DERWriter.boolean(true)).prefix(3)) == [0xbf, 0x85, 0x40])
        #expect(Array(DERWriter.explicit(709, []).prefix(3)) == [0xbf, 0x85, 0x45])
        #expect(try DERReader.parse(DERWriter.explicit(709, DERWriter.octetString([1, 2]))).explicit(709).octetString() == [1, 2])
        let long = [UInt8](repeating: 0xab, count: 300)
        #expect(try DERReader.parse(DERWriter.octetString(long)).octetString() == long)
        #expect(try DERReader.parse(DERWriter.set([DERWriter.integer(3), DERWriter.integer(1)])).set().map { try $0.integer() } == [1, 3])
        // UTCTime until 2049, GeneralizedTime from 2050; a leap day and the epoch.
        #expect(DERWriter.time(Self.now) == [0x17, 13] + Array("261130060235Z".utf8))
        #expect(DERWriter.time(1_709_164_800) == [0x17, 13] + Array("240229000000Z".utf8))
        #expect(DERWriter.time(2_524_608_000) == [0x18, 15] + Array("20500101000000Z".utf8))
        #expect(DERWriter.time(0) == [0x17, 13] + Array("700101000000Z".utf8))
    }

    @Test func `the CBOR writer writes what the strict reader reads back`() throws {
        let value = CBORValue.map([
            CBORMapEntry(key: .text("fmt"), value: .text("apple-appattest")),
            CBORMapEntry(key: CBORWriter.integer(-3), value: .bytes([UInt8](repeating: 9, count: 300))),
            CBORMapEntry(key: .unsigned(70_000), value: .array([.unsigned(23), .unsigned(24), CBORWriter.integer(-25)])),
            CBORMapEntry(key: .unsigned(1 << 40), value: .text("")),
        ])
        #expect(try CBORReader.decode(CBORWriter.encode(value)) == value)
        #expect(CBORWriter.encode(.unsigned(23)) == [0x17])
        #expect(CBORWriter.encode(.unsigned(24)) == [0x18, 0x18])
        #expect(CBORWriter.encode(CBORWriter.integer(-7)) == [0x26])
    }
}
