/// What a tenant asks of device attestation (App Attest, Android key attestation) at enrolment.
package enum AttestationPolicy: String, Codable, Sendable, Hashable, CaseIterable {
    /// Attestations are not asked for and not checked: enrolment as before.
    case off
    /// An attestation that comes is verified and its verdict stored; credentials without one are accepted.
    case record
    /// Enrolment without a valid attestation is refused (`403 attestation_required`).
    case require
}

/// Which App Attest environments a tenant accepts.
package enum AppleAttestationEnvironment: String, Codable, Sendable, Hashable, CaseIterable {
    case production, development, both
}

/// The least hardware an Android key must live in.
package enum AndroidMinimumSecurityLevel: String, Codable, Sendable, Hashable, CaseIterable {
    /// A trusted execution environment (or better).
    case tee
    /// A StrongBox secure element.
    case strongbox
}

/// An Android app a tenant trusts: its package name and the SHA-256 digests of its signing certificates (lowercase
/// hex, 64 characters each).
package struct AndroidPackageRule: Codable, Sendable, Hashable {
    package var packageName: String
    package var signingCertificateSha256: [String]

    package init(packageName: String, signingCertificateSha256: [String]) {
        self.packageName = packageName
        self.signingCertificateSha256 = signingCertificateSha256
    }
}
