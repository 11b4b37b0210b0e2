import AssentWire

/// What ``AssentPush/updateCredential(pushToken:resetExpiry:)`` returns, field for field as the specification's
/// `UpdatedAppCredential`.
public struct UpdatedAppCredential: Codable, Sendable, Hashable {
    /// The ID of the user authenticator backing the credential.
    public var userAuthenticatorId: String
    /// The user the credential belongs to.
    public var userId: String
    /// When the credential was last verified (ISO-8601), updated by this call.
    public var lastVerifiedAt: String
    /// The push token now registered against the credential.
    public var pushToken: String?
    /// When the credential expires (ISO-8601); only when a credential lifetime is configured.
    public var expiresAt: String?

    /// Creates the value.
    public init(
        userAuthenticatorId: String, userId: String, lastVerifiedAt: String, pushToken: String? = nil,
        expiresAt: String? = nil
    ) {
        self.userAuthenticatorId = userAuthenticatorId
        self.userId = userId
        self.lastVerifiedAt = lastVerifiedAt
        self.pushToken = pushToken
        self.expiresAt = expiresAt
    }

    /// The credential's ID as ``AppCredential/credentialId`` names it (the same value as ``userAuthenticatorId``).
    public var credentialId: String { userAuthenticatorId }

    init(_ response: UpdateCredentialResponse) {
        self.init(userAuthenticatorId: response.userAuthenticatorId, userId: response.userId,
                  lastVerifiedAt: response.lastVerifiedAt, pushToken: response.pushToken, expiresAt: response.expiresAt)
    }
}
