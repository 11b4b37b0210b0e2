/// Which messages a device credential signs, recorded when it is enrolled (`signatureScheme` in the enrolment body).
///
/// - ``compatible``: Authsignal's messages (the challenge id for a claim or an answer, the time window for a removal,
///   the server nonce for an update). What the official Authsignal SDKs enrol as: they never send the field.
/// - ``bound``: Assent's bound messages (``SignedMessage/claim(credentialId:challengeId:)`` and its siblings), which
///   name their purpose and the credential, so no signature serves two purposes and nothing in an answer can be changed
///   in transit. Assent's SDK and CLI enrol as `bound`; such a credential's bare (compatible) signatures are refused.
public enum SignatureScheme: String, Codable, Sendable, Hashable {
    /// Authsignal's messages.
    case compatible
    /// Assent's bound messages only.
    case bound
}

extension SignatureScheme: WireEnumeration {
    package static var wireSpellings: [String]? { [Self.bound.rawValue, Self.compatible.rawValue] }

    package static var wireType: WireType { .string(oneOf: wireSpellings) }
}
