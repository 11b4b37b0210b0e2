package import AssentCrypto

/// The outcome of verifying one PowerAuth signature.
package struct SignatureVerification: Sendable, Hashable {
    /// Whether the signature verified on an ACTIVE activation (its counter value is now used up).
    package var valid: Bool
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
