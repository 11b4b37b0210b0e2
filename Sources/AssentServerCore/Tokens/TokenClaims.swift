/// The claims of an Assent token. Every token is bound to one tenant, user, action and idempotency key.
package struct TokenClaims: Codable, Sendable, Hashable {
    /// What a token is for.
    package enum Kind: String, Codable, Sendable {
        /// Issued by track, for the client SDKs (enrol a device, start a challenge).
        case track
        /// Issued when a challenge succeeds, for the backend to validate once.
        case access
    }

    /// Issuer, always `assent`.
    package var iss: String
    /// Tenant.
    package var tid: String
    /// User.
    package var sub: String
    /// Action code.
    package var act: String
    /// Idempotency key of the action.
    package var idk: String
    /// Space-separated scopes (e.g. `add:authenticators`), if any.
    package var scope: String?
    /// What the token is for.
    package var typ: Kind
    /// Issued at, seconds since the epoch.
    package var iat: Int64
    /// Expires at, seconds since the epoch.
    package var exp: Int64
    /// Unique token id.
    package var jti: String

    /// Whether the token carries `scope` among its scopes.
    package func hasScope(_ wanted: String) -> Bool {
        scope?.split(separator: " ").contains { $0 == wanted } ?? false
    }
}
