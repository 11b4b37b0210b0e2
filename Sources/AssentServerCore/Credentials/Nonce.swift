/// A short-lived message a device signs to prove it holds its key (get challenge, update credential). Made and
/// checked by ``NonceIssuer`` without storage; an update nonce is stored only once spent, to make it single-use.
package struct Nonce: Sendable, Hashable {
    /// What the nonce may be used for.
    package enum Purpose: String, Sendable {
        /// Signed into `X-Authsignal-Signature` on get challenge (unlocks public custom data).
        case getChallenge = "get_challenge"
        /// Signed to update a push credential.
        case updateCredential = "update_credential"
    }

    /// Identifier (returned as `challengeId` by `.../push/sign`; for an update nonce the same text as ``message``).
    package var id: String
    /// The tenant.
    package var tenantID: String
    /// The authenticator it was issued to.
    package var authenticatorID: String
    /// Its use.
    package var purpose: Purpose
    /// The message to sign.
    package var message: String
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// Milliseconds since the epoch.
    package var expiresAt: Int64
    /// When it was spent.
    package var usedAt: Int64?

    /// A nonce with every field given.
    package init(
        id: String, tenantID: String, authenticatorID: String, purpose: Purpose, message: String, createdAt: Int64,
        expiresAt: Int64, usedAt: Int64? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.authenticatorID = authenticatorID
        self.purpose = purpose
        self.message = message
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}
