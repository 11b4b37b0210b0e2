import Foundation

/// The verdict of the attestation a credential was enrolled with, stored with it (as compact JSON) and shown in the
/// authenticator reads: which format said what about the key, the app and the device, and when the server checked it.
package struct CredentialAttestation: Sendable, Hashable, Codable {
    /// `apple-appattest` or `android-key`.
    package var format: String
    /// Whether the attestation verified (only verified attestations are stored today).
    package var verified: Bool
    /// Android: where the key lives, `tee` or `strongbox` (the lower of attestation and KeyMint); nil for App Attest.
    package var securityLevel: String?
    /// The App Attest app id (`TEAMID.bundle.id`) or the Android package.
    package var app: String
    /// App Attest: `production` or `development`.
    package var environment: String?
    /// Android: the OS version, e.g. 160000 (when attested).
    package var osVersion: Int64?
    /// Android: the OS patch level, e.g. 202606 (when attested).
    package var patchLevel: Int64?
    /// Android: the verified boot state (`verified`, `selfSigned`, `unverified`, `failed`), when attested.
    package var bootState: String?
    /// Android: whether a revocation status list was applied.
    package var revocationChecked: Bool?
    /// When the server verified it, milliseconds since the epoch.
    package var verifiedAt: Int64

    /// A verdict with every field given.
    package init(
        format: String, verified: Bool, securityLevel: String? = nil, app: String, environment: String? = nil,
        osVersion: Int64? = nil, patchLevel: Int64? = nil, bootState: String? = nil, revocationChecked: Bool? = nil,
        verifiedAt: Int64
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

    /// Compact JSON, keys sorted: the stored form.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings, numbers and booleans cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The stored form read back; nil when it is not one (never written so).
    package init?(json: String) {
        guard let value = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = value
    }
}
