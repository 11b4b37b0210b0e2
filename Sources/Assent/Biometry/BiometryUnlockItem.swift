/// The biometry factor's unlock key as kept behind the ``UserAuthenticator`` (the analogue of the biometry-only
/// keychain item): released only after a biometric authentication, and — when it was created with
/// `invalidateAfterChange` — only while the enrolled biometrics are those it was created under.
struct BiometryUnlockItem: Codable, Sendable {
    /// `biometryUnlockKey`, Base64 (16 random bytes).
    var unlockKey: String
    /// The authenticator's enrolment fingerprint when the item was created.
    var enrolmentFingerprint: String?
    /// Whether a changed enrolment invalidates the item.
    var invalidateAfterChange: Bool
}
