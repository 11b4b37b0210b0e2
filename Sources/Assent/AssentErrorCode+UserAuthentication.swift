extension AssentErrorCode {
    /// The user tried to authenticate and was not recognised (wrong finger, wrong passphrase); nothing was signed.
    public static let userAuthenticationFailed = "user_authentication_failed"
    /// The user dismissed the authentication prompt; nothing was signed.
    public static let userAuthenticationCanceled = "user_authentication_canceled"
    /// No authentication method the key allows is available (none enrolled, none supported).
    public static let userAuthenticationNotAvailable = "user_authentication_not_available"
    /// A signer from `startSigning()` was used before the user authenticated with it.
    public static let userAuthenticationRequired = "user_authentication_required"
    /// A signer from `startSigning()` was used a second time, or with another credential; each signs one answer.
    public static let signerInvalid = "signer_invalid"
    /// Biometrics are locked after too many failed attempts.
    public static let biometryLockout = "biometry_lockout"
    /// Another biometric authentication is in progress; only one runs at a time, a second fails at once.
    public static let biometryBusy = "biometry_busy"
}
