/// Why an `X-PowerAuth-Authorization` header was refused. Equality on ``code`` only.
package struct PowerAuthHeaderError: Error, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let value: String
        private init(_ value: String) { self.value = value }

        /// Not of the form `PowerAuth key="value", ...`.
        package static let malformed = Code("malformed")
        /// A required field is missing.
        package static let missingField = Code("missingField")
        /// `pa_version` is not 3.0, 3.1, 3.2 or 3.3.
        package static let unsupportedVersion = Code("unsupportedVersion")
        /// `pa_activation_id` is not a lower-case-able UUID (versions 1 to 5).
        package static let invalidActivationID = Code("invalidActivationID")
        /// `pa_application_key` is not Base64 of 16 bytes.
        package static let invalidApplicationKey = Code("invalidApplicationKey")
        /// `pa_nonce` is not Base64 of 16 bytes.
        package static let invalidNonce = Code("invalidNonce")
        /// `pa_signature_type` is not one of the six types.
        package static let invalidSignatureType = Code("invalidSignatureType")
        /// `pa_signature` has neither the decimal nor the Base64 shape.
        package static let invalidSignature = Code("invalidSignature")

        /// The code's name.
        package var description: String { value }
    }

    /// The stable reason.
    package let code: Code
    /// Detail for a person (never contains the signature).
    package let reason: String

    /// Creates an error.
    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `PowerAuthHeaderError.<code>: <reason>`.
    package var description: String { "PowerAuthHeaderError.\(code): \(reason)" }

    /// Equality on ``code`` only.
    package static func == (lhs: PowerAuthHeaderError, rhs: PowerAuthHeaderError) -> Bool { lhs.code == rhs.code }

    /// Hashes ``code`` only.
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
