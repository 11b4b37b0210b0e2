/// Thrown by ``CredentialStore/enrollDeviceCredential(_:enrolmentKey:attestation:reenrol:audit:events:)`` when the
/// attestation challenge the enrolment names was spent, expired or is not the user's by the time its transaction
/// runs: nothing is stored.
package struct AttestationChallengeSpent: Error, Sendable {
    package init() {}
}

/// Thrown by ``CredentialStore/enrollDeviceCredential(_:enrolmentKey:attestation:reenrol:audit:events:)`` when the
/// App Attest key id already vouches for another credential: nothing is stored.
package struct AttestationKeyUsed: Error, Sendable {
    package init() {}
}

/// What an attested enrolment spends in its transaction: the challenge, which must still be unspent, unexpired and
/// the user's at `at`.
package struct AttestationChallengeUse: Sendable, Hashable {
    /// The challenge's value.
    package var challenge: String
    /// The enrolment's user.
    package var userID: String
    /// The enrolment's time, milliseconds since the epoch.
    package var at: Int64

    /// A use of `challenge` by `userID` at `at`.
    package init(challenge: String, userID: String, at: Int64) {
        self.challenge = challenge
        self.userID = userID
        self.at = at
    }
}
