/// What one Android enrolment must show.
package struct AndroidKeyAttestationPolicy: Sendable, Hashable {
    /// The expected attestationChallenge: the binding hash (AssentWire's `AttestationBinding.bindingHash(challenge:publicKey:)`).
    package var challenge: [UInt8]
    /// The credential key being enrolled (DER SubjectPublicKeyInfo, or a P-256 point): the leaf's key must be it.
    package var credentialPublicKey: [UInt8]
    /// The apps accepted.
    package var packages: [AndroidPackage]
    /// The least security level accepted, for both attestation and KeyMint (`tee` by default).
    package var minimumSecurityLevel: AndroidSecurityLevel
    /// Whether the boot state must be Verified and the bootloader locked (the default).
    package var requireLockedBootloader: Bool

    /// A policy; the tenant settings' defaults are TEE and a locked bootloader.
    package init(
        challenge: [UInt8], credentialPublicKey: [UInt8], packages: [AndroidPackage],
        minimumSecurityLevel: AndroidSecurityLevel = .trustedEnvironment, requireLockedBootloader: Bool = true
    ) {
        self.challenge = challenge
        self.credentialPublicKey = credentialPublicKey
        self.packages = packages
        self.minimumSecurityLevel = minimumSecurityLevel
        self.requireLockedBootloader = requireLockedBootloader
    }
}
