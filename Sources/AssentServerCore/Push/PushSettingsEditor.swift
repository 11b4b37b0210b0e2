import AssentCrypto
package import AssentWire
import Foundation

/// Edits a tenant's ``PushSettings`` (from the admin CLI, the server API or the console): checks every value, parses
/// the credentials to prove they work, seals them, and shows the result without any secret.
package struct PushSettingsEditor: Sendable {
    /// What to change; nil leaves a value as it is.
    package struct Change: Sendable {
        /// The provider.
        package var provider: PushSettings.Provider?
        /// `.some(nil)` goes back to the tenant's webhook URL.
        package var webhookURL: String??
        /// Whether a failed `push.created` only gets recorded.
        package var webhookBestEffort: Bool?
        /// An APNs `.p8` key (PEM).
        package var apnsKeyPEM: String?
        /// The APNs key id.
        package var apnsKeyID: String?
        /// The APNs team id.
        package var apnsTeamID: String?
        /// The app's bundle id.
        package var apnsTopic: String?
        /// `sandbox` or `production`.
        package var apnsEnvironment: String?
        /// Forget the APNs credentials.
        package var removeAPNs = false
        /// A service-account JSON file's text.
        package var fcmServiceAccountJSON: String?
        /// Forget the FCM credentials.
        package var removeFCM = false

        /// No change.
        package init() {}

        /// Whether nothing was asked for.
        package var isEmpty: Bool {
            provider == nil && webhookURL == nil && webhookBestEffort == nil && apnsKeyPEM == nil && apnsKeyID == nil
                && apnsTeamID == nil && apnsTopic == nil && apnsEnvironment == nil && !removeAPNs
                && fcmServiceAccountJSON == nil && !removeFCM
        }
    }

    private let sealer: PushCredentialSealer
    private let destinations: OutboundURLPolicy

    /// Seals with a key derived from `masterKey`; the URLs a change names must satisfy `destinations`.
    package init(masterKey: [UInt8], destinations: OutboundURLPolicy) throws {
        sealer = try PushCredentialSealer(masterKey: masterKey)
        self.destinations = destinations
    }

    /// Seals under the current version of the master key ring `keys`; the URLs a change names must satisfy
    /// `destinations`.
    package init(keys: MasterKeys, destinations: OutboundURLPolicy) {
        sealer = PushCredentialSealer(keys: keys)
        self.destinations = destinations
    }

    /// Checks where `change` would send requests — the push webhook URL and the FCM service account's `token_uri` —
    /// against ``OutboundURLPolicy`` (a name is resolved here, so this is `async` and runs before ``apply(_:to:tenantID:)``
    /// and outside any transaction).
    ///
    /// - Throws: `AssentError.invalidRequest` when one leads to a private address; nothing has changed then.
    package func checkDestinations(of change: Change) async throws {
        if case .some(.some(let url)) = change.webhookURL {
            try await destinations.check(url, field: "push webhook URL")
        }
        if let json = change.fcmServiceAccountJSON, let account = try? ServiceAccount(json: json) {
            try await destinations.check(account.tokenURI, field: "FCM service account's token_uri")
        }
    }

    /// Applies `change` to the settings of `tenantID`.
    ///
    /// - Throws: `AssentError.invalidRequest` when a value is invalid; then nothing changes.
    package func apply(_ change: Change, to settings: inout TenantSettings, tenantID: String) throws {
        var push = settings.push ?? PushSettings()
        if let provider = change.provider { push.provider = provider }
        if let url = change.webhookURL {
            if let url {
                guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                    throw AssentError(.invalidRequest, "The push webhook URL must be an http(s) URL.")
                }
            }
            push.webhookURL = url
        }
        if let bestEffort = change.webhookBestEffort { push.webhookBestEffort = bestEffort }
        if change.removeAPNs { push.apns = nil }
        if change.removeFCM { push.fcm = nil }
        if let environment = change.apnsEnvironment, !["sandbox", "production"].contains(environment) {
            throw AssentError(.invalidRequest, "The APNs environment must be sandbox or production.")
        }
        for (name, value) in [("key id", change.apnsKeyID), ("team id", change.apnsTeamID), ("topic", change.apnsTopic)] {
            if let value, value.isEmpty || value.utf8.count > 255 || value.contains(where: { $0.isWhitespace }) {
                throw AssentError(.invalidRequest, "The APNs \(name) must be 1 to 255 characters without spaces.")
            }
        }
        if change.apnsKeyPEM != nil || change.apnsKeyID != nil || change.apnsTeamID != nil || change.apnsTopic != nil
            || change.apnsEnvironment != nil
        {
            let sealedKey: String
            if let pem = change.apnsKeyPEM {
                do {
                    _ = try P256.PrivateKey(pkcs8PEM: pem)
                } catch {
                    throw AssentError(.invalidRequest, "The APNs key is not a PKCS#8 P-256 private key (a .p8 file).")
                }
                sealedKey = try sealer.seal(pem, tenantID: tenantID, purpose: "apns")
            } else if let existing = push.apns?.sealedKey {
                sealedKey = existing
            } else {
                throw AssentError(.invalidRequest, "Give the APNs key (.p8) to configure APNs.")
            }
            guard let keyID = change.apnsKeyID ?? push.apns?.keyID, let teamID = change.apnsTeamID ?? push.apns?.teamID,
                  let topic = change.apnsTopic ?? push.apns?.topic
            else { throw AssentError(.invalidRequest, "APNs needs a key id, a team id and a topic.") }
            push.apns = PushSettings.APNs(
                keyID: keyID, teamID: teamID, topic: topic,
                environment: change.apnsEnvironment ?? push.apns?.environment ?? "production", sealedKey: sealedKey)
        }
        if let json = change.fcmServiceAccountJSON {
            let account = try ServiceAccount(json: json)
            push.fcm = PushSettings.FCM(
                projectID: account.projectID, clientEmail: account.clientEmail, tokenURI: account.tokenURI,
                sealedServiceAccount: try sealer.seal(json, tenantID: tenantID, purpose: "fcm"))
        }
        if push.provider == .webhook, push.webhookURL == nil, settings.webhookURL == nil {
            throw AssentError(.invalidRequest, "The webhook provider needs a push webhook URL or the tenant's webhook URL.")
        }
        settings.push = push
    }

    /// The settings as they may be shown: which credentials are configured and their public parts, never a key.
    package static func view(_ settings: TenantSettings) -> PushSettingsResponse {
        let push = settings.push ?? PushSettings()
        return PushSettingsResponse(
            provider: push.provider.rawValue, webhookUrl: push.webhookURL ?? settings.webhookURL,
            webhookBestEffort: push.webhookBestEffort,
            apns: push.apns.map {
                .init(configured: true, keyId: $0.keyID, teamId: $0.teamID, topic: $0.topic, environment: $0.environment)
            } ?? .init(configured: false),
            fcm: push.fcm.map { .init(configured: true, projectId: $0.projectID, clientEmail: $0.clientEmail) }
                ?? .init(configured: false))
    }
}
