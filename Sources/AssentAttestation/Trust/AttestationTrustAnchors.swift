/// The roots each attestation format trusts: the pinned ones shipped in the binary, plus what the operator adds.
///
/// Decisions: operator roots (`--attestation-roots FILE`, a PEM bundle) count for both formats, beside the pinned
/// ones, never instead of them — a private Android fleet's CA, or a test authority. Android roots match by public key
/// (Google has re-issued its RSA root with the same key), Apple roots by OpenSSL's path building.
package struct AttestationTrustAnchors: Sendable {
    /// The pinned Apple App Attestation Root CA.
    package let appleRoots: [AttestationRoot]
    /// The pinned Google hardware attestation roots (RSA, and the 2026 EC root).
    package let googleRoots: [AttestationRoot]
    /// Roots the operator added, trusted for both formats.
    package let addedRoots: [AttestationRoot]

    /// Only the pinned roots.
    package static let pinned: AttestationTrustAnchors = {
        do {
            return AttestationTrustAnchors(
                appleRoots: try X509Certificate.certificates(pem: PinnedRoots.apple).map(AttestationRoot.init),
                googleRoots: try (X509Certificate.certificates(pem: PinnedRoots.googleRSA)
                    + X509Certificate.certificates(pem: PinnedRoots.googleEC2026)).map(AttestationRoot.init),
                addedRoots: []
            )
        } catch {
            fatalError("a pinned attestation root does not parse: \(error)")
        }
    }()

    private init(appleRoots: [AttestationRoot], googleRoots: [AttestationRoot], addedRoots: [AttestationRoot]) {
        self.appleRoots = appleRoots
        self.googleRoots = googleRoots
        self.addedRoots = addedRoots
    }

    /// These anchors plus every certificate of a PEM bundle (the text of `--attestation-roots FILE`).
    ///
    /// - Throws: `malformed` when the text holds no certificate or one that does not parse; nothing is added then.
    package func adding(pemBundle text: String) throws(AttestationError) -> AttestationTrustAnchors {
        let added = try X509Certificate.certificates(pem: text).map(AttestationRoot.init)
        var roots = addedRoots
        for root in added where !roots.contains(root) { roots.append(root) }
        return AttestationTrustAnchors(appleRoots: appleRoots, googleRoots: googleRoots, addedRoots: roots)
    }

    /// What App Attest chains may end in.
    var appAttestRoots: [X509Certificate] { (appleRoots + addedRoots).map(\.certificate) }
    /// What Android chains may end in.
    var androidRoots: [X509Certificate] { (googleRoots + addedRoots).map(\.certificate) }
}
