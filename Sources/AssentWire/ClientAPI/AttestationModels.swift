/// `POST /v1/client/attestation/challenge` (Bearer enrolment token): a single-use challenge for a device attestation.
public struct AttestationChallengeResponse: Codable, Sendable, Hashable, WireSchema {
    /// base64url (no padding) of 32 random bytes. The attestation commits to it through the binding hash,
    /// SHA-256("assent-attest-v1|" + challenge + "|" + publicKey).
    public var challenge: String
    /// When it stops being accepted (Unix seconds), at most five minutes after it was issued.
    public var expiresAt: Int64

    /// Creates a response.
    public init(challenge: String, expiresAt: Int64) {
        self.challenge = challenge
        self.expiresAt = expiresAt
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("A single-use challenge for a device attestation.", [
        .field("challenge", \.challenge, "base64url of 32 random bytes; bound by SHA-256(\"assent-attest-v1|\" + challenge + \"|\" + publicKey)."),
        .field("expiresAt", \.expiresAt, "When it stops being accepted (Unix seconds), at most five minutes on."),
    ])
}
