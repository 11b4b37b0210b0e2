extension AssentError.Code {
    /// A rate limit's bucket is empty: answered `429` with a `Retry-After` (``AssentError/retryAfterSeconds``).
    package static let rateLimited = AssentError.Code(wire: "rate_limited")
}

extension AssentError {
    /// A request refused by `rule`, to retry after `retryAfterSeconds` (whole seconds, at least 1). The description
    /// says which limit, never whose.
    package static func rateLimited(
        _ rule: RateLimitRule, retryAfterSeconds: Int, file: String = #fileID, line: Int = #line
    ) -> AssentError {
        AssentError(
            .rateLimited, "Too many requests (\(rule.rawValue)); retry after \(retryAfterSeconds) s.",
            retryAfterSeconds: retryAfterSeconds, file: file, line: line)
    }
}
