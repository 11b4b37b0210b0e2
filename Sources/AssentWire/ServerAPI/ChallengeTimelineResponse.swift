/// `GET /v1/challenges/{challengeId}/timeline`: a challenge's queued notifications and its timeline (the start, every
/// recorded event, the answer or the expiry).
public struct ChallengeTimelineResponse: Codable, Sendable, Hashable, WireSchema {
    /// One notification queued for one device.
    public struct Delivery: Codable, Sendable, Hashable, WireSchema {
        /// The device's authenticator.
        public var userAuthenticatorId: String
        /// `apns`, `fcm` or `webhook`.
        public var provider: String
        /// `queued`, `delivered`, `stale_token`, `failed` or `expired`.
        public var state: String
        /// Attempts made so far.
        public var attempts: Int
        /// The last attempt's error code, when it failed.
        public var lastError: String?

        /// A delivery as the server reports it.
        public init(userAuthenticatorId: String, provider: String, state: String, attempts: Int, lastError: String?) {
            self.userAuthenticatorId = userAuthenticatorId
            self.provider = provider
            self.state = state
            self.attempts = attempts
            self.lastError = lastError
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>("One notification queued for one device.", name: "ChallengeDelivery", [
            .field("userAuthenticatorId", \.userAuthenticatorId, "The device's authenticator."),
            .field("provider", \.provider, "apns, fcm or webhook."),
            .field("state", \.state, "queued, delivered, stale_token, failed or expired."),
            .field("attempts", \.attempts, "Attempts made so far."),
            .optional("lastError", \.lastError, "The last attempt's error code, when it failed."),
        ])
    }

    /// One entry of the timeline (e.g. `challenge.started`, `push.queued`, `push.delivered`, `challenge.approved`).
    public struct Event: Codable, Sendable, Hashable, WireSchema {
        /// What happened.
        public var event: String
        /// When (ISO-8601).
        public var at: String
        /// The device it concerns, if one.
        public var userAuthenticatorId: String?
        /// The provider it concerns, if one.
        public var provider: String?
        /// The attempt number, for sends.
        public var attempt: Int?
        /// The provider's HTTP status, when it answered.
        public var status: Int?
        /// An error code or short detail; never a token or credential.
        public var detail: String?

        /// An event as the server reports it.
        public init(
            event: String, at: String, userAuthenticatorId: String?, provider: String?, attempt: Int?, status: Int?,
            detail: String?
        ) {
            self.event = event
            self.at = at
            self.userAuthenticatorId = userAuthenticatorId
            self.provider = provider
            self.attempt = attempt
            self.status = status
            self.detail = detail
        }

        /// The fields and their descriptions.
        package static let wireFields = WireFields<Self>(
            "One entry, oldest first: challenge.started, then what the server recorded (push.queued, push.delivered, "
                + "push.failed, webhook.delivered, ...), then challenge.claimed, challenge.approved, challenge.denied or "
                + "challenge.expired.", name: "ChallengeEvent", [
                .field("event", \.event, "What happened."),
                .field("at", \.at, Timestamp.wireDescription),
                .optional("userAuthenticatorId", \.userAuthenticatorId, "The device it concerns, if one."),
                .optional("provider", \.provider, "The provider it concerns, if one."),
                .optional("attempt", \.attempt, "The attempt number, for sends."),
                .optional("status", \.status, "The provider's HTTP status, when it answered."),
                .optional("detail", \.detail, "An error code or short detail; never a token or credential."),
            ])
    }

    /// The challenge.
    public var challengeId: String
    /// Its notifications, one per targeted device.
    public var deliveries: [Delivery]
    /// Every recorded event, oldest first.
    public var timeline: [Event]

    /// A timeline as the server reports it.
    public init(challengeId: String, deliveries: [Delivery], timeline: [Event]) {
        self.challengeId = challengeId
        self.deliveries = deliveries
        self.timeline = timeline
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>(
        "A push challenge's queued notifications and every recorded event.", name: "ChallengeTimeline", [
            .field("challengeId", \.challengeId, "The challenge."),
            .field("deliveries", \.deliveries, "Its notifications, one per targeted device."),
            .field("timeline", \.timeline, "Every recorded event, oldest first."),
        ])
}
