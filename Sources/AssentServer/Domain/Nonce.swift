/// A single-use, short-lived message a device signs to prove it holds its key (get challenge, update credential).
public struct Nonce: Sendable, Hashable {
    /// What the nonce may be used for.
    public enum Purpose: String, Sendable {
        /// Signed into `X-Authsignal-Signature` on get challenge (unlocks public custom data).
        case getChallenge = "get_challenge"
        /// Signed to update a push credential.
        case updateCredential = "update_credential"
    }

    /// Identifier (returned as `challengeId` by `.../push/sign`).
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// The authenticator it was issued to.
    public var authenticatorID: String
    /// Its use.
    public var purpose: Purpose
    /// The message to sign.
    public var message: String
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// Milliseconds since the epoch.
    public var expiresAt: Int64
    /// Set once used.
    public var usedAt: Int64?
}
