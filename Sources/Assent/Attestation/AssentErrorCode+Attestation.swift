extension AssentErrorCode {
    /// The configured ``Attester`` could not attest the key or make an assertion (it threw, or its statement names
    /// another challenge than the server gave); nothing was enrolled or answered.
    public static let attestationFailed = "attestation_failed"

    // Codes the server sends for device attestation (docs/attestation.md), listed for convenience.

    /// The tenant enrols only attested keys and none came (configure an ``Attester``), or an approval needs an
    /// attested credential (or an App Attest assertion) that this one lacks. HTTP 403.
    public static let attestationRequired = "attestation_required"
    /// The attestation did not verify; the error names the failed step (chain, root, nonce, app id, ...). HTTP 400.
    public static let attestationInvalid = "attestation_invalid"
    /// The attestation's challenge is unknown, spent, expired or another user's. HTTP 400.
    public static let attestationChallengeInvalid = "attestation_challenge_invalid"
}
