/// What a verified App Attest attestation says, to be stored with the credential.
package struct AppAttestVerdict: Sendable, Hashable {
    /// The app id (`TEAMID.bundle.id`) whose SHA-256 is the rpIdHash.
    package let appId: String
    /// The environment the aaguid names.
    package let environment: AppAttestEnvironment
    /// The key id (SHA-256 of the attested key's uncompressed point), as the app names the key.
    package let keyId: [UInt8]
    /// The attested App Attest key, an uncompressed P-256 point (65 bytes): what assertions are verified with.
    package let publicKey: [UInt8]
    /// Apple's receipt (for Apple's fraud-metric service; not verified here).
    package let receipt: [UInt8]
}
