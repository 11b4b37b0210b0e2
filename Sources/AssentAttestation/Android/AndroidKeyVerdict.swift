/// What a verified Android key attestation says, to be stored with the credential.
package struct AndroidKeyVerdict: Sendable, Hashable {
    /// The accepted package the attestation names.
    package let packageName: String
    /// The attestation's security level.
    package let attestationSecurityLevel: AndroidSecurityLevel
    /// The KeyMint (Keymaster) security level.
    package let keyMintSecurityLevel: AndroidSecurityLevel
    /// The verified boot state (nil when the attestation has no RootOfTrust).
    package let verifiedBootState: AndroidVerifiedBootState?
    /// Whether the bootloader is locked (false when unknown).
    package let deviceLocked: Bool
    /// The OS version, e.g. 160000 for Android 16 (when attested).
    package let osVersion: Int64?
    /// The OS patch level, e.g. 202602 (when attested).
    package let osPatchLevel: Int64?
    /// The KeyDescription's attestationVersion.
    package let attestationVersion: Int64
    /// Whether a status list was applied (false: no list was configured or none is fresh enough).
    package let revocationChecked: Bool
    /// The attested (leaf) key, DER SubjectPublicKeyInfo.
    package let publicKey: [UInt8]
}
