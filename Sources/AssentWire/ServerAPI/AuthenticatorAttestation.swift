/// The verdict of a device credential's attestation in the server API's authenticator reads (present only when one
/// was recorded).
public struct AuthenticatorAttestation: Codable, Sendable, Hashable, WireSchema {
    /// `apple-appattest` or `android-key`.
    public var format: String
    /// Whether it verified.
    public var verified: Bool
    /// Android: `tee` or `strongbox`.
    public var securityLevel: String?
    /// The App Attest app id or the Android package.
    public var app: String
    /// App Attest: `production` or `development`.
    public var environment: String?
    /// Android: the OS version (e.g. 160000).
    public var osVersion: Int64?
    /// Android: the OS patch level (e.g. 202606).
    public var patchLevel: Int64?
    /// Android: the verified boot state.
    public var bootState: String?
    /// Android: whether a revocation status list was applied.
    public var revocationChecked: Bool?
    /// When the server verified it (ISO-8601).
    public var verifiedAt: String

    /// Creates a verdict.
    public init(
        format: String, verified: Bool, securityLevel: String? = nil, app: String, environment: String? = nil,
        osVersion: Int64? = nil, patchLevel: Int64? = nil, bootState: String? = nil, revocationChecked: Bool? = nil,
        verifiedAt: String
    ) {
        self.format = format
        self.verified = verified
        self.securityLevel = securityLevel
        self.app = app
        self.environment = environment
        self.osVersion = osVersion
        self.patchLevel = patchLevel
        self.bootState = bootState
        self.revocationChecked = revocationChecked
        self.verifiedAt = verifiedAt
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The verdict of the credential's device attestation.", [
        .field("format", \.format, "apple-appattest or android-key."),
        .field("verified", \.verified, "Whether the attestation verified."),
        .optional("securityLevel", \.securityLevel, "Android: tee or strongbox."),
        .field("app", \.app, "The App Attest app id or the Android package."),
        .optional("environment", \.environment, "App Attest: production or development."),
        .optional("osVersion", \.osVersion, "Android: the OS version, e.g. 160000."),
        .optional("patchLevel", \.patchLevel, "Android: the OS patch level, e.g. 202606."),
        .optional("bootState", \.bootState, "Android: verified, selfSigned, unverified or failed."),
        .optional("revocationChecked", \.revocationChecked, "Android: whether a revocation status list was applied."),
        .field("verifiedAt", \.verifiedAt, Timestamp.wireDescription),
    ])
}
