/// The optional `attestation` of an enrolment (`POST /v1/client/user-authenticators/{push|qr-code}`): a device
/// attestation committing, through the binding hash SHA-256("assent-attest-v1|" + challenge + "|" + publicKey), to a
/// challenge from `POST /v1/client/attestation/challenge` and to the key being enrolled.
public struct AttestationStatement: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// `apple-appattest` or `android-key`.
    public var format: String
    /// The challenge, as `POST /v1/client/attestation/challenge` answered it.
    public var challenge: String
    /// `apple-appattest`: base64 of the App Attest key id.
    public var keyId: String?
    /// `apple-appattest`: base64 of the CBOR attestation object.
    public var attestationObject: String?
    /// `android-key`: base64 DER certificates, leaf first (its key is the credential key), root last.
    public var certificateChain: [String]?

    /// The formats an enrolment may carry.
    public static let formats = ["apple-appattest", "android-key"]
    /// The longest base64 text of an attestation object or certificate accepted on the wire (more than the 16 KiB
    /// decoded the verifiers take, so an object just over that is refused by the verifier as `too large`).
    public static let maxBase64Length = 32 * 1024

    /// Creates a statement.
    public init(
        format: String, challenge: String, keyId: String? = nil, attestationObject: String? = nil,
        certificateChain: [String]? = nil
    ) {
        self.format = format
        self.challenge = challenge
        self.keyId = keyId
        self.attestationObject = attestationObject
        self.certificateChain = certificateChain
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "A device attestation committing to a challenge and to the key being enrolled.",
        blank: { Self(format: "", challenge: "") }, [
            .choice("format", \.format, maxLength: 32, allowed: formats, absent: "",
                    refusal: "format must be \"apple-appattest\" or \"android-key\".",
                    "apple-appattest or android-key."),
            .requiredString("challenge", \.challenge, maxLength: 128,
                            "The challenge from POST /v1/client/attestation/challenge."),
            .string("keyId", \.keyId, maxLength: 128, "apple-appattest: base64 of the App Attest key id."),
            .string("attestationObject", \.attestationObject, maxLength: maxBase64Length,
                    "apple-appattest: base64 of the CBOR attestation object (at most 16 KiB decoded)."),
            .strings("certificateChain", \.certificateChain, maxCount: 10, maxLength: maxBase64Length,
                     "android-key: base64 DER certificates, leaf first (its key is the credential key)."),
        ])
}
