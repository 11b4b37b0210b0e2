import AssentCrypto

/// Verifies an Android key attestation certificate chain and the leaf's KeyDescription against a tenant's policy.
///
/// Decisions: Google's chains are not all RFC 5280-conformant, so the chain is walked here as Google's own verifier
/// does, not by OpenSSL's path validation: each certificate's signature by the next, the intermediates within their
/// validity at the verification time, the last certificate a trust anchor (matched by public key, so every issuance of
/// Google's RSA root counts) or signed by one. The leaf's validity is not required (keys are attested with fixed
/// validity fields), nor the root's (a trust anchor is trusted as such). A status list, when given, is applied to
/// every certificate of the chain. Checks run in this order, each refusal naming its step: size, chain, root,
/// validity, revoked, challenge, security level, public key, app id, boot state.
package struct AndroidKeyAttestationVerifier: Sendable {
    /// The wire's format name.
    package static let format = "android-key"

    private let trustAnchors: AttestationTrustAnchors

    /// A verifier trusting `trustAnchors` (the pinned Google roots, plus operator roots).
    package init(trustAnchors: AttestationTrustAnchors = .pinned) {
        self.trustAnchors = trustAnchors
    }

    /// Verifies `certificateChain` (DER, leaf first, root last or omitted).
    ///
    /// - Parameters:
    ///   - certificateChain: the decoded certificates, together at most ``AttestationLimits/maximumDecodedBytes``.
    ///   - policy: the binding hash, the credential key and the tenant's rules.
    ///   - statusList: Google's revocation status list when a fresh copy is at hand; nil skips revocation and the
    ///     verdict says so.
    ///   - nowMilliseconds: the verification time, milliseconds since the epoch.
    /// - Throws: ``AttestationError`` naming the failed step.
    package func verify(
        certificateChain: [[UInt8]], policy: AndroidKeyAttestationPolicy, statusList: AndroidRevocationStatusList?,
        nowMilliseconds: Int64
    ) throws(AttestationError) -> AndroidKeyVerdict {
        let total = certificateChain.reduce(0) { $0 + $1.count }
        guard total <= AttestationLimits.maximumDecodedBytes else {
            throw AttestationError(.tooLarge, "a certificate chain of \(total) bytes")
        }
        guard !certificateChain.isEmpty, certificateChain.count <= 10 else {
            throw AttestationError(.malformed, "a chain of \(certificateChain.count) certificates")
        }
        var chain: [X509Certificate] = []
        for der in certificateChain { chain.append(try X509Certificate(der: der)) }

        // The chain: each certificate signed by the next.
        for index in chain.indices.dropLast() where !chain[index].isSigned(by: chain[index + 1]) {
            throw AttestationError(.chain, "certificate \(index) is not signed by certificate \(index + 1)")
        }
        // The root: the last certificate is a trust anchor (the same key: what it signed is signed by the anchor), or
        // is signed by one (a chain sent without its root).
        let last = chain[chain.count - 1]
        let lastKey = try last.publicKeySPKI()
        let lastIsAnchor = trustAnchors.androidRoots.contains { (try? $0.publicKeySPKI()) == lastKey }
        guard lastIsAnchor || trustAnchors.androidRoots.contains(where: { last.isSigned(by: $0) }) else {
            throw AttestationError(.root, "the chain does not end in a trusted root")
        }
        // Validity: the certificates between the leaf and the anchor.
        let seconds = AppAttestVerifier.seconds(nowMilliseconds)
        let intermediates = chain.indices.dropFirst().dropLast(lastIsAnchor ? 1 : 0)
        for index in intermediates where !chain[index].isValid(atSeconds: seconds) {
            throw AttestationError(.validity, "intermediate certificate \(index) is not valid at the verification time")
        }
        // Revocation: every certificate of the chain.
        if let statusList {
            for (index, certificate) in chain.enumerated() {
                if let status = statusList.status(ofSerial: try certificate.serialHex) {
                    throw AttestationError(.revoked, "certificate \(index) is \(status.rawValue.lowercased()) in the status list")
                }
            }
        }

        let leaf = chain[0]
        guard let extensionValue = try leaf.extensionValue(oid: KeyDescription.oid) else {
            throw AttestationError(.malformed, "the leaf has no key attestation extension")
        }
        let description = try KeyDescription(der: extensionValue)

        guard ConstantTime.equals(description.attestationChallenge, policy.challenge) else {
            throw AttestationError(.challenge, "the attestation challenge is not the binding hash")
        }
        guard description.attestationSecurityLevel >= policy.minimumSecurityLevel,
              description.keyMintSecurityLevel >= policy.minimumSecurityLevel else {
            throw AttestationError(.securityLevel, "security levels \(description.attestationSecurityLevel.name)/"
                + "\(description.keyMintSecurityLevel.name) are below \(policy.minimumSecurityLevel.name)")
        }
        let leafKey = try leaf.publicKeySPKI()
        guard Self.sameKey(leafKey, policy.credentialPublicKey) else {
            throw AttestationError(.publicKey, "the attested key is not the credential key")
        }
        let applicationId = description.softwareEnforced.applicationId ?? description.hardwareEnforced.applicationId
        guard let applicationId else { throw AttestationError(.appId, "the attestation names no application") }
        let accepted = policy.packages.first { package in
            applicationId.packageNames.contains(package.packageName)
                && package.signingCertificateSHA256.contains { digest in applicationId.signatureDigests.contains(digest) }
        }
        guard let accepted else {
            throw AttestationError(.appId, "no allowed package with an allowed signing certificate is attested")
        }
        let rootOfTrust = description.hardwareEnforced.rootOfTrust ?? description.softwareEnforced.rootOfTrust
        if policy.requireLockedBootloader {
            guard let rootOfTrust, rootOfTrust.verifiedBootState == .verified, rootOfTrust.deviceLocked else {
                throw AttestationError(.bootState, "the boot state is \(rootOfTrust?.verifiedBootState.name ?? "unknown"), "
                    + "device locked \(rootOfTrust?.deviceLocked ?? false)")
            }
        }
        let hardware = description.hardwareEnforced, software = description.softwareEnforced
        return AndroidKeyVerdict(
            packageName: accepted.packageName,
            attestationSecurityLevel: description.attestationSecurityLevel,
            keyMintSecurityLevel: description.keyMintSecurityLevel,
            verifiedBootState: rootOfTrust?.verifiedBootState,
            deviceLocked: rootOfTrust?.deviceLocked ?? false,
            osVersion: hardware.osVersion ?? software.osVersion,
            osPatchLevel: hardware.osPatchLevel ?? software.osPatchLevel,
            attestationVersion: description.attestationVersion,
            revocationChecked: statusList != nil,
            publicKey: leafKey
        )
    }

    /// Whether the leaf's SPKI is the credential key, given as SPKI or (P-256) as a point.
    private static func sameKey(_ leafSPKI: [UInt8], _ credential: [UInt8]) -> Bool {
        if leafSPKI == credential { return true }
        guard let leaf = try? P256.PublicKey(spkiDER: leafSPKI), let other = try? P256.PublicKey(x962: credential) else {
            return false
        }
        return leaf == other
    }
}
