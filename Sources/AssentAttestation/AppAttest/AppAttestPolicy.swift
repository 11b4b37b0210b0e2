/// An App Attest environment, as the aaguid of an attestation names it.
package enum AppAttestEnvironment: String, Sendable, Hashable, CaseIterable {
    /// aaguid `appattest` followed by seven zero bytes.
    case production
    /// aaguid `appattestdevelop` (apps signed for development).
    case development

    /// The 16 aaguid bytes of this environment.
    var aaguid: [UInt8] {
        switch self {
        case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        case .development: Array("appattestdevelop".utf8)
        }
    }
}

/// What a tenant accepts from App Attest: its app ids and environments.
package struct AppAttestPolicy: Sendable, Hashable {
    /// The apps accepted, each `TEAMID.bundle.id`; the rpIdHash must be SHA-256 of one of them.
    package var appIds: [String]
    /// The environments accepted (`production` only by default; `development` only when the tenant allows it).
    package var environments: Set<AppAttestEnvironment>

    /// A policy for `appIds` in `environments`.
    package init(appIds: [String], environments: Set<AppAttestEnvironment> = [.production]) {
        self.appIds = appIds
        self.environments = environments
    }
}
