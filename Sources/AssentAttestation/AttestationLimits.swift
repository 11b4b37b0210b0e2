/// Size limits every verifier applies before parsing.
package enum AttestationLimits: Sendable {
    /// The largest attestation accepted, decoded (an App Attest object; an Android chain's certificates together).
    package static let maximumDecodedBytes = 16 * 1024
}
