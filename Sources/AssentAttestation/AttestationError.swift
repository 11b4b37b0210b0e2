/// The one error type of AssentAttestation: which step of a verification refused the attestation.
///
/// Match on ``code`` (stable); ``step`` is the name the wire's `errorDescription` uses ("key id", "boot state"), and
/// ``reason`` is a detail for logs that may change. Two errors are equal when their codes are equal.
package struct AttestationError: Error, Hashable, CustomStringConvertible {
    /// A stable, machine-readable name of the failed step.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case chain
            case root
            case validity
            case nonce
            case keyId = "key id"
            case appId = "app id"
            case counter
            case environment
            case challenge
            case securityLevel = "security level"
            case bootState = "boot state"
            case revoked
            case signature
            case publicKey = "public key"
            case malformed
            case tooLarge = "too large"
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// A certificate of the chain is malformed, missing, or not signed by the next one.
        package static let chain = Code(.chain)
        /// The chain does not end in a trusted root (pinned, or added by the operator).
        package static let root = Code(.root)
        /// A certificate that must be within its validity period is not, at the verification time.
        package static let validity = Code(.validity)
        /// App Attest: the leaf's nonce extension is not SHA-256(authData ‖ clientDataHash).
        package static let nonce = Code(.nonce)
        /// App Attest: SHA-256 of the leaf's public key, the key id and the credential id disagree.
        package static let keyId = Code(.keyId)
        /// The app (App Attest rpIdHash, Android package or signing certificate) is not one of those allowed.
        package static let appId = Code(.appId)
        /// App Attest: the counter is not 0 in an attestation, or not above the last one seen in an assertion.
        package static let counter = Code(.counter)
        /// App Attest: the aaguid names an environment the policy does not allow (or neither).
        package static let environment = Code(.environment)
        /// Android: the attestation challenge is not the binding hash.
        package static let challenge = Code(.challenge)
        /// Android: the attestation or KeyMint security level is below the policy's minimum.
        package static let securityLevel = Code(.securityLevel)
        /// Android: the verified boot state is not Verified, or the bootloader is unlocked.
        package static let bootState = Code(.bootState)
        /// Android: a certificate of the chain is revoked or suspended in the status list.
        package static let revoked = Code(.revoked)
        /// An App Attest assertion's signature does not verify with the stored key.
        package static let signature = Code(.signature)
        /// Android: the attested (leaf) key is not the credential key being enrolled.
        package static let publicKey = Code(.publicKey)
        /// The input is not the structure the format defines (CBOR, DER, lengths, fields).
        package static let malformed = Code(.malformed)
        /// The input is larger than ``AttestationLimits/maximumDecodedBytes``.
        package static let tooLarge = Code(.tooLarge)

        /// The step's name as the wire says it, e.g. `key id`.
        package var description: String { value.rawValue }
    }

    /// The stable code of the failed step.
    package let code: Code
    /// Human-readable detail (never key material or a whole certificate).
    package let reason: String
    /// The file that raised the error (`#fileID`).
    package let file: String
    /// The line that raised the error.
    package let line: Int

    /// Creates an error with a code and a reason, recording where it was raised.
    package init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// The failed step's name, e.g. `key id` (what `attestation_invalid`'s `errorDescription` names).
    package var step: String { code.description }

    /// `AttestationError.<step>: <reason> (<file>:<line>)`.
    package var description: String {
        "AttestationError.\(code): \(reason) (\(file):\(line))"
    }

    /// Equality on ``code`` only.
    package static func == (lhs: AttestationError, rhs: AttestationError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes ``code`` only, consistent with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
