/// The claims of an Assent token. Every token is bound to one tenant, user, action and idempotency key.
public struct TokenClaims: Codable, Sendable, Hashable {
    /// What a token is for.
    public enum Kind: String, Codable, Sendable {
        /// Issued by track, for the client SDKs (enrol a device, start a challenge).
        case track
        /// Issued when a challenge succeeds, for the backend to validate once.
        case access
    }

    /// Issuer, always `assent`.
    public var iss: String
    /// Tenant.
    public var tid: String
    /// User.
    public var sub: String
    /// Action code.
    public var act: String
    /// Idempotency key of the action.
    public var idk: String
    /// Space-separated scopes (e.g. `add:authenticators`), if any.
    public var scope: String?
    /// What the token is for.
    public var typ: Kind
    /// Issued at, seconds since the epoch.
    public var iat: Int64
    /// Expires at, seconds since the epoch.
    public var exp: Int64
    /// Unique token id.
    public var jti: String

    /// Whether the token carries `scope` among its scopes.
    public func hasScope(_ wanted: String) -> Bool {
        scope?.split(separator: " ").contains { $0 == wanted } ?? false
    }
}
