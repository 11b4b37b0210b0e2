extension EnrolmentAttestation {
    /// The device attestation an enrolment or an activation carries, as the HTTP layer parsed it: it commits, through
    /// the binding hash SHA-256("assent-attest-v1|" + challenge + "|" + publicKey), to a challenge from
    /// ``AttestationChallenges`` and to the key being enrolled.
    package struct Statement: Sendable, Hashable {
        /// `apple-appattest` or `android-key`.
        package var format: String
        /// The challenge, as it was issued.
        package var challenge: String
        /// `apple-appattest`: base64 of the App Attest key id.
        package var keyID: String?
        /// `apple-appattest`: base64 of the CBOR attestation object.
        package var attestationObject: String?
        /// `android-key`: base64 DER certificates, leaf first (its key is the credential key), root last.
        package var certificateChain: [String]

        /// A statement of `format` over `challenge`.
        package init(
            format: String, challenge: String, keyID: String? = nil, attestationObject: String? = nil,
            certificateChain: [String] = []
        ) {
            self.format = format
            self.challenge = challenge
            self.keyID = keyID
            self.attestationObject = attestationObject
            self.certificateChain = certificateChain
        }
    }
}
