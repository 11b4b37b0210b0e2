import AssentWire

/// A push credential as the server knows it: what ``AssentPush/addCredential(token:userPresenceRequired:userAuthenticationRequired:timeout:authorizationType:pushToken:)``
/// and ``AssentPush/getCredential()`` return.
public struct AppCredential: Codable, Sendable, Hashable {
    /// The credential's ID (the server's `userAuthenticatorId`).
    public var credentialId: String
    /// When it was created (ISO-8601, the server's `verifiedAt`).
    public var createdAt: String
    /// The user it belongs to.
    public var userId: String
    /// When it was last used (ISO-8601): the last approve, deny, QR claim or credential update; nil until the first.
    public var lastAuthenticatedAt: String?
    /// When it lapses unless kept alive with ``AssentPush/updateCredential(pushToken:resetExpiry:)`` (ISO-8601);
    /// nil when the tenant sets no credential lifetime.
    public var expiresAt: String?

    /// Creates the value.
    public init(
        credentialId: String, createdAt: String, userId: String, lastAuthenticatedAt: String? = nil,
        expiresAt: String? = nil
    ) {
        self.credentialId = credentialId
        self.createdAt = createdAt
        self.userId = userId
        self.lastAuthenticatedAt = lastAuthenticatedAt
        self.expiresAt = expiresAt
    }

    /// A credential just enrolled has not been used: `lastAuthenticatedAt` stays nil until its first approve, deny,
    /// claim or update (Authsignal's iOS SDK copies `verifiedAt` here, which the documents contradict).
    init(_ response: AddCredentialResponse) {
        self.init(credentialId: response.userAuthenticatorId, createdAt: response.verifiedAt, userId: response.userId,
                  lastAuthenticatedAt: nil, expiresAt: response.expiresAt)
    }

    init(_ response: CredentialResponse) {
        self.init(credentialId: response.userAuthenticatorId, createdAt: response.verifiedAt, userId: response.userId,
                  lastAuthenticatedAt: response.lastVerifiedAt, expiresAt: response.expiresAt)
    }
}
