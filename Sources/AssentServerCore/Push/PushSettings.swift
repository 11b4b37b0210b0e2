/// How a tenant's push challenges reach devices. Stored inside ``TenantSettings``; credentials only sealed
/// (AES-GCM under a key derived from the server's master key, see ``PushCredentialSealer``), never in the clear.
///
/// Tenants created before push delivery existed have no `push` settings and behave as ``Provider/none``: pull only,
/// exactly as before.
package struct PushSettings: Codable, Sendable, Hashable {
    /// Who sends the notification.
    package enum Provider: String, Codable, Sendable, CaseIterable {
        /// The tenant's backend: a synchronous `push.created` webhook; its failure fails the challenge start unless
        /// ``PushSettings/webhookBestEffort`` is set.
        case webhook
        /// Apple Push Notification service for every device.
        case apns
        /// Firebase Cloud Messaging (HTTP v1) for every device.
        case fcm
        /// APNs for iOS devices, FCM for the rest.
        case `default`
        /// No notification; devices pull pending challenges.
        case none
    }

    /// APNs provider-token credentials.
    package struct APNs: Codable, Sendable, Hashable {
        /// The key's id (JWT `kid`).
        package var keyID: String
        /// The team id (JWT `iss`).
        package var teamID: String
        /// The app's bundle id (`apns-topic`).
        package var topic: String
        /// `sandbox` or `production`.
        package var environment: String
        /// The sealed `.p8` PEM.
        package var sealedKey: String

        /// Creates APNs settings.
        package init(keyID: String, teamID: String, topic: String, environment: String, sealedKey: String) {
            self.keyID = keyID
            self.teamID = teamID
            self.topic = topic
            self.environment = environment
            self.sealedKey = sealedKey
        }
    }

    /// FCM HTTP v1 credentials.
    package struct FCM: Codable, Sendable, Hashable {
        /// The Firebase project id.
        package var projectID: String
        /// The service account's e-mail (JWT `iss`).
        package var clientEmail: String
        /// Where the OAuth token is fetched.
        package var tokenURI: String
        /// The sealed service-account JSON.
        package var sealedServiceAccount: String

        /// Creates FCM settings.
        package init(projectID: String, clientEmail: String, tokenURI: String, sealedServiceAccount: String) {
            self.projectID = projectID
            self.clientEmail = clientEmail
            self.tokenURI = tokenURI
            self.sealedServiceAccount = sealedServiceAccount
        }
    }

    /// The provider (default ``Provider/none``).
    package var provider: Provider = .none
    /// Where `push.created` goes for ``Provider/webhook``; nil uses the tenant's webhook URL.
    package var webhookURL: String?
    /// A failed `push.created` is only recorded instead of failing the challenge start.
    package var webhookBestEffort = false
    /// APNs credentials, when configured.
    package var apns: APNs?
    /// FCM credentials, when configured.
    package var fcm: FCM?

    /// No provider.
    package init() {}

    /// Decodes settings, tolerating missing keys.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        provider = try container.decodeIfPresent(Provider.self, forKey: .provider) ?? .none
        webhookURL = try container.decodeIfPresent(String.self, forKey: .webhookURL)
        webhookBestEffort = try container.decodeIfPresent(Bool.self, forKey: .webhookBestEffort) ?? false
        apns = try container.decodeIfPresent(APNs.self, forKey: .apns)
        fcm = try container.decodeIfPresent(FCM.self, forKey: .fcm)
    }

    /// The store provider for a device of `platform` (`IOS`, `ANDROID`, ...), or nil when none sends to it.
    package func provider(forPlatform platform: String?) -> Provider? {
        switch provider {
        case .apns: .apns
        case .fcm: .fcm
        case .default: platform?.uppercased() == "IOS" ? .apns : .fcm
        case .webhook, .none: nil
        }
    }
}
