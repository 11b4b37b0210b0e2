import Assent
import AssentAttestation

/// The enrol commands' `--attest-with DIR` and the flags that shape the attestation it makes.
enum DeviceAttestationOptions {
    static let options: [Option] = [
        .optional("--attest-with", "DIR", "attest the key with the test authority in DIR "
            + "(assent admin attestation test-authority create DIR); the server must trust DIR/root.pem"),
        .optional("--attest-format", "FORMAT", "with --attest-with: android-key (default) or apple-appattest"),
        .optional("--android-package", "NAME", "with --attest-with: the package the android-key attestation names "
            + "(default: the authority's)"),
        .optional("--signing-certificate-sha256", "HEX", "with --attest-with: the package's signing-certificate "
            + "digest (default: the authority's)"),
        .optional("--app-id", "TEAMID.BUNDLE", "with --attest-with: the app id the apple-appattest attestation names "
            + "(default: the authority's)"),
    ]

    /// The attester the options ask for over `keyStore`, or nil without `--attest-with`.
    static func attester(_ options: ParsedOptions, keyStore: any KeyStore) throws -> (any Attester)? {
        guard let directory = try options.nonEmpty("--attest-with") else {
            for option in Self.options.dropFirst() where options.isGiven(option.name) {
                throw CLIError.usage("\(option.name) needs --attest-with")
            }
            return nil
        }
        let format = try options.nonEmpty("--attest-format") ?? AndroidKeyAttestationVerifier.format
        guard TestAuthorityAttester.formats.contains(format) else {
            throw CLIError.usage("--attest-format must be android-key or apple-appattest, got '\(format)'")
        }
        let (authority, identities) = try TestAuthorityDirectory(path: directory).load()
        let digestText = try options.nonEmpty("--signing-certificate-sha256") ?? identities.signingCertificateSha256
        guard let digest = Hex.decode(digestText), digest.count == 32 else {
            throw CLIError.usage("--signing-certificate-sha256 must be 64 hex digits, got '\(digestText)'")
        }
        return TestAuthorityAttester(
            authority: authority, format: format,
            appleAppId: try options.nonEmpty("--app-id") ?? identities.appleAppId,
            android: AttestationTestAuthority.AndroidClaims(
                packageName: try options.nonEmpty("--android-package") ?? identities.androidPackage,
                signingCertificateSHA256: digest),
            keyStore: keyStore)
    }
}
