/// `GET /v1/challenges/{challengeId}/timeline`: a challenge's queued notifications and its timeline (the start, every
/// recorded event, the answer or the expiry).
public struct ChallengeTimelineResponse: Codable, Sendable, Hashable {
    /// One notification queued for one device.
    public struct Delivery: Codable, Sendable, Hashable {
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
    }

    /// One entry of the timeline (e.g. `challenge.started`, `push.queued`, `push.delivered`, `challenge.approved`).
    public struct Event: Codable, Sendable, Hashable {
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
}
