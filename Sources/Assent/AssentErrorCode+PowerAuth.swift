extension AssentErrorCode {
    /// The SDK was created without a ``PowerAuthConfiguration`` (the pinned master public key).
    public static let powerAuthNotConfigured = "powerauth_not_configured"
    /// This device has no activation; call `createActivation` first.
    public static let missingActivation = "missing_activation"
    /// This device already has an activation; remove it locally first.
    public static let activationExists = "activation_exists"
    /// The activation answer is not signed by the pinned master key (or its fingerprint does not match); nothing was
    /// stored.
    public static let activationSignatureInvalid = "activation_signature_invalid"
    /// The stored activation data cannot be used (damaged, or the vault key did not match).
    public static let activationDataInvalid = "activation_data_invalid"
    /// This authentication object was used for a request the server refused with 401; it cannot be used again
    /// (re-sending the same credentials would burn failed attempts and block the activation).
    public static let authenticationInvalidated = "authentication_invalidated"
    /// The activation has no biometry factor (never added, removed, or invalidated).
    public static let biometryFactorNotConfigured = "biometry_factor_not_configured"
    /// The enrolled biometrics changed and the biometry factor was created with `invalidateBiometricFactorAfterChange`:
    /// its key is gone; add the factor again with the password.
    public static let biometryKeyInvalidated = "biometry_key_invalidated"
    /// Biometric authentication is not available on this device (not supported, nothing enrolled).
    public static let biometryNotAvailable = "biometry_not_available"

    // Codes the server sends for PowerAuth, listed for convenience.

    /// The signature did not verify (wrong password or biometry key, counter out of the window); counted as a failed
    /// attempt for every type but `possession`. Fetch the activation status to see the remaining attempts.
    public static let invalidSignature = "invalid_signature"
    /// The tenant requires a factor signature (e.g. `possession_biometry`) for approvals and none, or a weaker one,
    /// was sent.
    public static let factorRequired = "factor_required"
}
