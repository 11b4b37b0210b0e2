/// One trust anchor as the operator sees it: what logs and `assentd check-config` print for it.
package struct AttestationRoot: Sendable, Hashable {
    /// The certificate's subject in OpenSSL's one-line form, e.g. `/CN=Apple App Attestation Root CA/...`.
    package let subject: String
    /// SHA-256 of the DER certificate, lowercase hex.
    package let sha256: String
    /// The certificate itself.
    let certificate: X509Certificate

    init(_ certificate: X509Certificate) {
        self.certificate = certificate
        subject = certificate.subject
        sha256 = certificate.sha256Hex
    }

    /// Equality on the certificate's SHA-256.
    package static func == (lhs: AttestationRoot, rhs: AttestationRoot) -> Bool {
        lhs.sha256 == rhs.sha256
    }

    /// Hashes the certificate's SHA-256, consistent with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(sha256)
    }
}
