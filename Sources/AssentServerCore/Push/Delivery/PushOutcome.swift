/// What one attempt to send a notification came to, whatever the provider.
package enum PushOutcome: Sendable, Equatable {
    /// The provider accepted the notification.
    case delivered(status: Int)
    /// The provider says the push token is dead; `code` is what the authenticator's `errorCode` becomes.
    case staleToken(code: String, status: Int, reason: String)
    /// Worth another attempt later (throttled, provider trouble, no connection). `retryAfter` is the provider's
    /// `Retry-After` in seconds, when it gave one; `refreshCredentials` asks for a new provider token first.
    case retry(status: Int?, reason: String, retryAfter: Double? = nil, refreshCredentials: Bool = false)
    /// Refused for a reason another attempt will not fix (bad credentials, topic, payload).
    case failed(status: Int?, reason: String)

    /// The authenticator error code for an unregistered (uninstalled, expired) push token.
    package static let unregistered = "push_token_unregistered"
    /// The authenticator error code for a malformed or foreign push token.
    package static let invalidToken = "push_token_invalid"
}
