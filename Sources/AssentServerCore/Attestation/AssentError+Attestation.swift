extension AssentError.Code {
    /// The tenant requires a device attestation and the enrolment carried none.
    package static let attestationRequired = AssentError.Code(wire: "attestation_required")
    /// The attestation did not verify; the description names the failed step.
    package static let attestationInvalid = AssentError.Code(wire: "attestation_invalid")
    /// The attestation's challenge is unknown, spent, expired or another user's.
    package static let attestationChallengeInvalid = AssentError.Code(wire: "attestation_challenge_invalid")
}

extension AssentError {
    /// `attestation_challenge_invalid`, one wording whatever the reason (unknown, spent, expired, another user's), so
    /// the answer tells a stranger nothing about other users' challenges.
    package static func attestationChallengeInvalid(file: String = #fileID, line: Int = #line) -> AssentError {
        AssentError(
            .attestationChallengeInvalid,
            "The attestation challenge is unknown, expired or already used; ask for a new one.", file: file, line: line)
    }
}
