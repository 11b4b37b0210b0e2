import AssentAttestation
import AssentCrypto
import AssentServerCore
import Foundation

/// `assent admin attestation ...`: device attestation helpers for development and tests.
enum AttestationCommands {
    /// The `attestation` group.
    static let group = Command.group(
        "attestation", "device attestation for development: a test authority whose attestations a test server trusts",
        [Command.group("test-authority", "create a test attestation authority (root certificate and key)", [create])])

    static let create = Command.leaf(
        "create", "create a test attestation authority in DIR and print its root certificate's path",
        details: """
            Writes DIR (created 0700; files 0600): root.pem, the root certificate; root-key.pem, its private key;
            authority.json, the app identities its attestations name (--android-package, --signing-certificate-sha256,
            --app-id, or the defaults). A test server trusts it with assentd --attestation-roots DIR/root.pem, and a
            device enrols with 'assent device push enrol --attest-with DIR'. For development and tests only: anyone
            holding root-key.pem can attest any key to a server that trusts the root.
            """,
        options: [
            .bareWord("--dir", "DIR", "the directory to create (also accepted as a bare word)"),
            .optional("--android-package", "NAME", "the Android package attestations name (default dev.assent.example)"),
            .optional("--signing-certificate-sha256", "HEX", "that package's signing-certificate SHA-256, 64 hex digits "
                + "(default SHA-256 of \"assent test signing certificate\")"),
            .optional("--app-id", "TEAMID.BUNDLE", "the App Attest app id (default TESTTEAM01.dev.assent.example)"),
        ]
    ) { invocation in
        let options = invocation.options
        guard let path = try options.nonEmpty("--dir") else { throw CLIError.usage("DIR is required") }
        var identities = TestAuthorityDirectory.Identities.defaults
        if let package = try options.nonEmpty("--android-package") { identities.androidPackage = package }
        if let digest = try options.nonEmpty("--signing-certificate-sha256") {
            guard let bytes = Hex.decode(digest), bytes.count == 32 else {
                throw CLIError.usage("--signing-certificate-sha256 must be 64 hex digits, got '\(digest)'")
            }
            identities.signingCertificateSha256 = Hex.encode(bytes)
        }
        if let appId = try options.nonEmpty("--app-id") { identities.appleAppId = appId }
        let directory = TestAuthorityDirectory(path: (path as NSString).expandingTildeInPath)
        let authority = try directory.create(identities: identities, nowSeconds: WallClock.system.nowMilliseconds() / 1000)
        try invocation.output.result(
            CreatedJSON(
                directory: directory.path, rootCertificate: directory.rootPath,
                rootSha256: Hex.encode(SHA256.hash(authority.rootCertificate)), identities: identities)
        ) {
            directory.rootPath
        }
    }

    /// What `create` prints with `--json`.
    struct CreatedJSON: Encodable {
        var directory: String
        /// The root certificate's path, for `assentd --attestation-roots`.
        var rootCertificate: String
        /// SHA-256 of the root certificate (DER), as assentd logs each added root.
        var rootSha256: String
        var identities: TestAuthorityDirectory.Identities
    }
}
