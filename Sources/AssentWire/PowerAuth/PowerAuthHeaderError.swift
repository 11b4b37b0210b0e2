/// Why an `X-PowerAuth-Authorization` header was refused. Equality on ``code`` only.
public struct PowerAuthHeaderError: Error, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let value: String
        private init(_ value: String) { self.value = value }

        /// Not of the form `PowerAuth key="value", ...`.
        public static let malformed = Code("malformed")
        /// A required field is missing.
        public static let missingField = Code("missingField")
        /// `pa_version` is not 3.0, 3.1, 3.2 or 3.3.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// `pa_activation_id` is not a lower-case-able UUID (versions 1 to 5).
        public static let invalidActivationID = Code("invalidActivationID")
        /// `pa_application_key` is not Base64 of 16 bytes.
        public static let invalidApplicationKey = Code("invalidApplicationKey")
        /// `pa_nonce` is not Base64 of 16 bytes.
        public static let invalidNonce = Code("invalidNonce")
        /// `pa_signature_type` is not one of the six types.
        public static let invalidSignatureType = Code("invalidSignatureType")
        /// `pa_signature` has neither the decimal nor the Base64 shape.
        public static let invalidSignature = Code("invalidSignature")

        /// The code's name.
        public var description: String { value }
    }

    /// The stable reason.
    public let code: Code
    /// Detail for a person (never contains the signature).
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `PowerAuthHeaderError.<code>: <reason>`.
    public var description: String { "PowerAuthHeaderError.\(code): \(reason)" }

    /// Equality on ``code`` only.
    public static func == (lhs: PowerAuthHeaderError, rhs: PowerAuthHeaderError) -> Bool { lhs.code == rhs.code }

    /// Hashes ``code`` only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
