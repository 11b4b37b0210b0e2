import AssentCrypto

/// What a device attestation commits to: the server's challenge and the credential key being enrolled. One definition
/// for the SDK, which hands the hash to its ``Attester`` (Assent's SDK), and the server, which checks it.
public enum AttestationBinding: Sendable {
    /// `SHA-256(UTF-8 "assent-attest-v1|" + challenge + "|" + publicKey)`, with `challenge` as
    /// `POST /v1/client/attestation/challenge` answered it and `publicKey` exactly the string of the enrolment body
    /// (base64 of the key's SPKI DER, as the SDK sends it). App Attest's `clientDataHash`; Android's
    /// `attestationChallenge`.
    ///
    /// An app that makes its attestations outside the SDK computes the same 32 bytes with this function.
    public static func bindingHash(challenge: String, publicKey: String) -> [UInt8] {
        SHA256.hash(Array("assent-attest-v1|\(challenge)|\(publicKey)".utf8))
    }
}
