/// One notification to send: a push challenge for one authenticator through one provider, queued in the database
/// so a restart does not lose it, and retried with backoff until delivered, refused for good, or the challenge ends.
public struct PushDelivery: Sendable, Hashable {
    /// Where a delivery stands.
    public enum State: String, Sendable, CaseIterable {
        /// Waiting for its (next) attempt.
        case queued
        /// The provider accepted it.
        case delivered
        /// The provider said the push token is no longer valid; the authenticator is marked.
        case staleToken = "stale_token"
        /// Refused for a reason retrying cannot fix (credentials, configuration).
        case failed
        /// The challenge ended (or its credential went away) before it could be sent.
        case expired
    }

    /// Identifier.
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// The push challenge.
    public var challengeID: String
    /// The targeted authenticator.
    public var authenticatorID: String
    /// `apns` or `fcm`.
    public var provider: PushSettings.Provider
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// The challenge's expiry: no attempt starts after it.
    public var expiresAt: Int64
    /// When the next attempt is due.
    public var nextAttemptAt: Int64
    /// Attempts made so far.
    public var attempts = 0
    /// Where it stands.
    public var state = State.queued
    /// While set and in the future, one worker holds it (a lease; another instance may take it once it lapses).
    public var claimedUntil: Int64?
    /// The last failure, for people.
    public var lastError: String?
    /// Filled in by a claim: the authenticator's current push token.
    public var pushToken: String?
    /// Filled in by a claim: the authenticator's platform.
    public var devicePlatform: String?

    /// A queued delivery, due at once.
    public init(
        id: String, tenantID: String, challengeID: String, authenticatorID: String, provider: PushSettings.Provider,
        createdAt: Int64, expiresAt: Int64
    ) {
        self.id = id
        self.tenantID = tenantID
        self.challengeID = challengeID
        self.authenticatorID = authenticatorID
        self.provider = provider
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        nextAttemptAt = createdAt
    }
}
