/// A device credential and a challenge, read together for a device's request (one round trip on PostgreSQL):
/// ``ChallengeStore/pushCredentialAndPendingChallenge(tenantID:publicKey:now:)`` and
/// ``ChallengeStore/credentialAndChallenge(tenantID:method:publicKey:challengeID:)``.
package struct CredentialAndChallenge: Sendable, Hashable {
    /// The credential whose public key the device presented, as stored (expired or not: judging it is the caller's);
    /// nil when none has that key.
    package var authenticator: Authenticator?
    /// The challenge the read asked for; nil when there is none.
    package var challenge: Challenge?

    /// What a store reports after reading `authenticator` and `challenge` (by default: neither).
    package init(authenticator: Authenticator? = nil, challenge: Challenge? = nil) {
        self.authenticator = authenticator
        self.challenge = challenge
    }
}
