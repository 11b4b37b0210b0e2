import AssentCrypto

/// What an attestation commits to: the server's challenge and the credential key being enrolled.
package enum AttestationBinding: Sendable {
    /// `SHA-256(UTF-8 "assent-attest-v1|" + challenge + "|" + publicKey)`, with `challenge` and `publicKey` exactly
    /// the strings of the enrolment body. App Attest's `clientDataHash`; Android's `attestationChallenge`.
    package static func bindingHash(challenge: String, publicKey: String) -> [UInt8] {
        SHA256.hash(Array("assent-attest-v1|\(challenge)|\(publicKey)".utf8))
    }
}
