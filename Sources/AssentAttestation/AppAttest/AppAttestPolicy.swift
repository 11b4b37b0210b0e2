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
