import AssentCrypto

/// Verifies Apple App Attest attestations, every step of Apple's "Validating apps that connect to your
/// server", against the pinned Apple App Attestation Root CA (and the operator's added roots).
///
/// Decisions: the size limit is checked before any parsing; the chain goes through OpenSSL's `X509_verify_cert` with
/// an explicit store (only the trust anchors) and the caller's time, so every certificate's validity counts; each
/// refusal names the one step that failed, in Apple's order (chain, nonce, key id, app id, counter, environment,
/// credential id). `clientDataHash` is taken as bytes, whatever rule made them (AssentWire's `AttestationBinding`, or the
/// raw challenge of Apple's guide sample); the app and the server must use the same rule.
package struct AppAttestVerifier: Sendable {
    /// The `fmt` of an App Attest attestation object.
    package static let format = "apple-appattest"
    /// The leaf extension holding the nonce.
    static let nonceExtensionOID = "1.2.840.113635.100.8.2"

    private let trustAnchors: AttestationTrustAnchors

    /// A verifier trusting `trustAnchors` (the pinned Apple root, plus operator roots).
    package init(trustAnchors: AttestationTrustAnchors = .pinned) {
        self.trustAnchors = trustAnchors
    }

    /// Verifies an attestation object (CBOR `{fmt, attStmt: {x5c, receipt}, authData}`) for the key `keyId`.
    ///
    /// - Parameters:
    ///   - object: the decoded attestation object, at most ``AttestationLimits/maximumDecodedBytes``.
    ///   - keyId: the key id the app reports (SHA-256 of the attested key's uncompressed point).
    ///   - clientDataHash: the bytes the app passed to `attestKey(_:clientDataHash:)` (Assent: the binding hash).
    ///   - policy: the tenant's app ids and environments.
    ///   - nowMilliseconds: the verification time, milliseconds since the epoch (the server's `WallClock`).
    /// - Throws: ``AttestationError`` naming the failed step.
    package func verifyAttestation(
        _ object: [UInt8], keyId: [UInt8], clientDataHash: [UInt8], policy: AppAttestPolicy, nowMilliseconds: Int64
    ) throws(AttestationError) -> AppAttestVerdict {
        guard object.count <= AttestationLimits.maximumDecodedBytes else {
            throw AttestationError(.tooLarge, "an attestation object of \(object.count) bytes")
        }
        let decoded = try CBORReader.decode(object)
        guard decoded["fmt"]?.text == Self.format else { throw AttestationError(.malformed, "fmt is not \(Self.format)") }
        guard let statement = decoded["attStmt"], let x5c = statement["x5c"]?.array, x5c.count >= 2,
              let receipt = statement["receipt"]?.bytes, let authDataBytes = decoded["authData"]?.bytes else {
            throw AttestationError(.malformed, "attStmt.x5c (leaf, intermediate), attStmt.receipt or authData missing")
        }
        var certificates: [X509Certificate] = []
        for item in x5c {
            guard let der = item.bytes else { throw AttestationError(.malformed, "an x5c entry is not a byte string") }
            certificates.append(try X509Certificate(der: der))
        }
        let leaf = certificates[0]

        // 1. The chain to a trusted root, every certificate valid now.
        try leaf.verifyChain(intermediates: Array(certificates.dropFirst()), roots: trustAnchors.appAttestRoots,
                             atSeconds: Self.seconds(nowMilliseconds))

        // 2–3. nonce = SHA-256(authData ‖ clientDataHash) is the leaf's extension: SEQUENCE { [1] EXPLICIT OCTET STRING }.
        let nonce = SHA256.hash(authDataBytes + clientDataHash)
        guard let extensionValue = try leaf.extensionValue(oid: Self.nonceExtensionOID) else {
            throw AttestationError(.nonce, "the leaf has no nonce extension")
        }
        let attestedNonce: [UInt8]
        do throws(AttestationError) {
            let fields = try DERReader.parse(extensionValue).sequence()
            guard fields.count == 1 else { throw AttestationError(.malformed, "the nonce extension holds \(fields.count) fields") }
            attestedNonce = try fields[0].explicit(1).octetString()
        } catch {
            throw AttestationError(.nonce, "the nonce extension is malformed: \(error.reason)")
        }
        guard ConstantTime.equals(attestedNonce, nonce) else {
            throw AttestationError(.nonce, "the nonce extension is not SHA-256(authData ‖ clientDataHash)")
        }

        // 4. SHA-256 of the leaf's uncompressed key is the key id.
        let publicKey: P256.PublicKey
        do {
            publicKey = try P256.PublicKey(spkiDER: try leaf.publicKeySPKI())
        } catch {
            throw AttestationError(.keyId, "the leaf's key is not a P-256 key")
        }
        guard ConstantTime.equals(SHA256.hash(publicKey.x962Uncompressed), keyId) else {
            throw AttestationError(.keyId, "SHA-256 of the leaf's key is not the key id")
        }

        // 5. rpIdHash is SHA-256 of one of the allowed app ids.
        let authData = try AuthenticatorData(authDataBytes, attested: true)
        guard let appId = Self.appId(matching: authData.rpIdHash, in: policy.appIds) else {
            throw AttestationError(.appId, "the rpIdHash is not SHA-256 of an allowed app id")
        }

        // 6. A new key's counter is 0.
        guard authData.counter == 0 else { throw AttestationError(.counter, "the counter is \(authData.counter), not 0") }

        // 7. The aaguid names an allowed environment.
        guard let environment = AppAttestEnvironment.allCases.first(where: { $0.aaguid == authData.aaguid }) else {
            throw AttestationError(.environment, "the aaguid names no App Attest environment")
        }
        guard policy.environments.contains(environment) else {
            throw AttestationError(.environment, "the \(environment.rawValue) environment is not allowed")
        }

        // 8. The credential id is the key id.
        guard let credentialId = authData.credentialId, ConstantTime.equals(credentialId, keyId) else {
            throw AttestationError(.keyId, "the credential id is not the key id")
        }
        return AppAttestVerdict(appId: appId, environment: environment, keyId: keyId, publicKey: publicKey.x962Uncompressed,
                                receipt: receipt)
    }

    private static func appId(matching rpIdHash: [UInt8], in appIds: [String]) -> String? {
        appIds.first { ConstantTime.equals(SHA256.hash(Array($0.utf8)), rpIdHash) }
    }

    static func seconds(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / 1000 : -((-milliseconds + 999) / 1000)
    }
}
