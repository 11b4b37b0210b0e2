import Foundation

/// Which rate limits apply: on or off (`--rate-limits off`, for benchmarks and tests that are not about limits), and
/// each rule's limit, defaulting to ``RateLimitRule/defaultLimit``.
package struct RateLimitPolicy: Sendable, Hashable {
    /// Whether any limit applies.
    package var enabled = true
    /// Limits the operator changed; every other rule keeps its default.
    package var overrides: [RateLimitRule: RateLimit] = [:]

    /// Every rule at its default.
    package init() {}

    /// The limit of `rule`.
    package func limit(_ rule: RateLimitRule) -> RateLimit { overrides[rule] ?? rule.defaultLimit }

    /// Reads `NAME=COUNT/PERIOD` settings separated by commas (`--rate-limit`), where NAME is a rule's name or `*` for
    /// every rule; later settings win. Nil with the first setting it cannot read.
    package mutating func apply(_ settings: String) -> Substring? {
        for setting in settings.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !setting.isEmpty {
            guard let equals = setting.firstIndex(of: "="),
                  let limit = RateLimit(parsing: String(setting[setting.index(after: equals)...]))
            else { return Substring(setting) }
            let name = setting[..<equals]
            if name == "*" {
                for rule in RateLimitRule.allCases { overrides[rule] = limit }
            } else if let rule = RateLimitRule(rawValue: String(name)) {
                overrides[rule] = limit
            } else {
                return Substring(setting)
            }
        }
        return nil
    }
}
