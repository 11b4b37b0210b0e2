/// One notification to send: a push challenge for one authenticator through one provider, queued in the database
/// so a restart does not lose it, and retried with backoff until delivered, refused for good, or the challenge ends.
package struct PushDelivery: Sendable, Hashable {
    /// Where a delivery stands.
    package enum State: String, Sendable, CaseIterable {
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
    package var id: String
    /// The tenant.
    package var tenantID: String
    /// The push challenge.
    package var challengeID: String
    /// The targeted authenticator.
    package var authenticatorID: String
    /// `apns` or `fcm`.
    package var provider: PushSettings.Provider
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// The challenge's expiry: no attempt starts after it.
    package var expiresAt: Int64
    /// When the next attempt is due.
    package var nextAttemptAt: Int64
    /// Attempts made so far.
    package var attempts = 0
    /// Where it stands.
    package var state = State.queued
    /// While set and in the future, one worker holds it (a lease; another instance may take it once it lapses).
    package var claimedUntil: Int64?
    /// The last failure, for people.
    package var lastError: String?
    /// Filled in by a claim: the authenticator's current push token.
    package var pushToken: String?
    /// Filled in by a claim: the authenticator's platform.
    package var devicePlatform: String?

    /// A queued delivery, due at once.
    package init(
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
