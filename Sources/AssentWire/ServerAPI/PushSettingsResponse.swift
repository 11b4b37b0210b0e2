/// `GET`/`PATCH /v1/tenant/push`: the tenant's push provider. Credentials are never shown, only whether they are
/// configured and their public parts.
public struct PushSettingsResponse: Codable, Sendable, Hashable, WireSchema {
    /// APNs without the key.
    public struct APNs: Codable, Sendable, Hashable, WireSchema {
        /// Whether a key is stored.
        public var configured: Bool
        /// The key id.
        public var keyId: String?
        /// The team id.
        public var teamId: String?
        /// The app's bundle id.
        public var topic: String?
        /// `sandbox` or `production`.
        public var environment: String?

        /// Creates the APNs part.
        public init(
            configured: Bool, keyId: String? = nil, teamId: String? = nil, topic: String? = nil, environment: String? = nil
        ) {
            self.configured = configured
            self.keyId = keyId
            self.teamId = teamId
            self.topic = topic
            self.environment = environment
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>("APNs without the key.", inline: true, [
            .field("configured", \.configured, nil),
            .optional("keyId", \.keyId, nil),
            .optional("teamId", \.teamId, nil),
            .optional("topic", \.topic, nil),
            .optional("environment", \.environment, "sandbox or production."),
        ])
    }

    /// FCM without the service account's key.
    public struct FCM: Codable, Sendable, Hashable, WireSchema {
        /// Whether a service account is stored.
        public var configured: Bool
        /// The Firebase project.
        public var projectId: String?
        /// The service account.
        public var clientEmail: String?

        /// Creates the FCM part.
        public init(configured: Bool, projectId: String? = nil, clientEmail: String? = nil) {
            self.configured = configured
            self.projectId = projectId
            self.clientEmail = clientEmail
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>("FCM without the service account's key.", inline: true, [
            .field("configured", \.configured, nil),
            .optional("projectId", \.projectId, nil),
            .optional("clientEmail", \.clientEmail, nil),
        ])
    }

    /// `webhook`, `apns`, `fcm`, ...
    public var provider: String
    /// Where `push.created` goes: the push webhook URL, or the tenant's webhook URL.
    public var webhookUrl: String?
    /// Whether a failed `push.created` only gets recorded.
    public var webhookBestEffort: Bool
    /// APNs.
    public var apns: APNs
    /// FCM.
    public var fcm: FCM

    /// Creates the response.
    public init(provider: String, webhookUrl: String?, webhookBestEffort: Bool, apns: APNs, fcm: FCM) {
        self.provider = provider
        self.webhookUrl = webhookUrl
        self.webhookBestEffort = webhookBestEffort
        self.apns = apns
        self.fcm = fcm
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>(
        "The tenant's push provider; credentials are never shown, only whether they are configured.",
        name: "PushSettings", [
            .field("provider", \.provider, "webhook, apns, fcm, ..."),
            .optional("webhookUrl", \.webhookUrl, "Where push.created goes."),
            .field("webhookBestEffort", \.webhookBestEffort, nil),
            .field("apns", \.apns, nil),
            .field("fcm", \.fcm, nil),
        ])
}
