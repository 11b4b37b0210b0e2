/// An Android app a tenant accepts: its package name and the SHA-256 digests of its signing certificates.
package struct AndroidPackage: Sendable, Hashable {
    /// The package name, e.g. `com.example.bank`.
    package var packageName: String
    /// SHA-256 of each accepted signing certificate (32 bytes each); one of them must be attested.
    package var signingCertificateSHA256: [[UInt8]]

    /// A package and its accepted signing-certificate digests.
    package init(packageName: String, signingCertificateSHA256: [[UInt8]]) {
        self.packageName = packageName
        self.signingCertificateSHA256 = signingCertificateSHA256
    }
}
