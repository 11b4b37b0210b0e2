/// A request refused by a rate limit: answered `429` with the error envelope's `errorCode` ``wireCode`` and a
/// `Retry-After` of ``retryAfterSeconds``.
package struct RateLimitExceeded: Error, Hashable, CustomStringConvertible, Sendable {
    /// The wire `errorCode`.
    package static let wireCode = "rate_limited"

    /// The rule whose bucket was empty.
    package let rule: RateLimitRule
    /// Whole seconds until the bucket holds a token again (at least 1).
    package let retryAfterSeconds: Int

    /// A refusal by `rule`, to retry after `retryAfterSeconds`.
    package init(rule: RateLimitRule, retryAfterSeconds: Int) {
        self.rule = rule
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// Shown as `errorDescription`: which limit, never whose.
    package var reason: String { "Too many requests (\(rule.rawValue)); retry after \(retryAfterSeconds) s." }

    /// `rate_limited: reason`.
    package var description: String { "\(Self.wireCode): \(reason)" }
}
