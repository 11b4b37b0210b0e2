import AssentCrypto

/// Issues the challenges devices' attestations commit to (`POST /v1/client/attestation/challenge`).
///
/// Decisions: a challenge is stored rather than a stateless MAC, so that the enrolment that uses it can spend it in
/// its own transaction (a second use, from any instance, finds it spent). It is bound to the enrolment token's tenant
/// and user and needs the scope an enrolment needs, so only a holder of a token that may enrol can ask for one.
package struct AttestationChallenges: Sendable {
    let store: any AttestationChallengeStore
    let clock: WallClock

    /// Challenges kept in `store`, timed by `clock`.
    package init(store: any AttestationChallengeStore, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// A new challenge for the token's user, valid for five minutes. The token needs scope `add:authenticators`.
    package func issue(tenant: Tenant, claims: TokenClaims) async throws -> AttestationChallenge {
        guard claims.hasScope("add:authenticators") else {
            throw AssentError(.forbidden, "The token lacks the add:authenticators scope.")
        }
        let now = clock.nowMilliseconds()
        let challenge = AttestationChallenge(
            value: Base64.encodeURL(SecureRandom.bytes(AttestationChallenge.byteCount)), tenantID: tenant.id,
            userID: claims.sub, createdAt: now, expiresAt: now + AttestationChallenge.lifetimeMilliseconds)
        try await store.insertAttestationChallenge(challenge)
        return challenge
    }
}
