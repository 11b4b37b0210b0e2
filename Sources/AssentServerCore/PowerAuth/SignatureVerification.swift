package import AssentCrypto

/// The outcome of verifying one PowerAuth signature.
package struct SignatureVerification: Sendable, Hashable {
    /// Why a signature did not verify, and whether that cost the activation an attempt.
    package enum Failure: Sendable, Hashable {
        /// No such activation in this tenant.
        case unknownActivation
        /// The activation is not ACTIVE (or was just blocked at its failure limit).
        case notActive
        /// The header's application key is not the tenant's: nothing counted.
        case wrongApplicationKey
        /// `pa_version` 3.0 while the tenant does not allow it: nothing counted.
        case legacyVersionRefused
        /// No component verified at any counter value of the look-ahead (made up, replayed, or over other data):
        /// nothing counted, nothing advanced.
        case noMatch
        /// The possession component verified, another did not: the device itself signed with a wrong PIN or
        /// biometry key. Counted, and the counter moved past the value it used.
        case counted
    }

    /// Whether the signature verified on an ACTIVE activation (its counter value is now used up).
    package var valid: Bool { failure == nil }
    /// Why it did not verify; nil when it did.
    package var failure: Failure?
    /// The activation id from the header.
    package var activationID: String
    /// The activation after the verification; nil when it does not exist (in this tenant).
    package var activation: ActivationRecord?
    /// The signature type from the header.
    package var signatureType: PowerAuthSignatureType
    /// Failed attempts left before the activation is blocked (0 when it is not ACTIVE).
    package var remainingAttempts: Int
    /// How far ahead of the server's counter the device signed (valid signatures only; 0...19).
    package var distance: Int?

    /// The activation's status, `REMOVED` for an unknown one.
    package var status: ActivationStatus { activation?.status ?? .removed }
}
