/// What the SDK needs to activate a device with PowerAuth-style multi-factor signatures.
public struct PowerAuthConfiguration: Sendable, Hashable {
    /// The tenant's PowerAuth master public key (Base64 SEC1 uncompressed, 65 bytes), pinned here: an activation
    /// answer not signed by it is refused. `assent admin tenant powerauth --tenant ID` prints it.
    public var masterPublicKey: String
    /// Whether a change of the enrolled biometrics (a finger or face added or removed) invalidates the biometry
    /// factor's key. `nil` (the default) means the platform's default, as biometry-setup.md states it: invalidated on
    /// Android, not invalidated on iOS (see ``invalidatesBiometricFactorAfterChange(platform:)``). Applies to biometry
    /// factors added from now on; remove and add the factor to change an existing one.
    public var invalidateBiometricFactorAfterChange: Bool?
    /// Android's `authenticateOnBiometricKeySetup` (biometry-setup.md): whether
    /// ``AssentPowerAuth/addBiometryFactor(password:prompt:)`` asks the user for a biometric authentication, with its
    /// prompt, while it sets up the biometry key (`true`, the default, as on Android), or sets the key up without one
    /// (`false`), so that the simplified `addBiometryFactor(password:)` shows nothing. On iOS setting up the key never
    /// prompts, whatever this says (see ``authenticatesOnBiometricKeySetup(platform:)``). Either way the key can only
    /// be used after a biometric authentication, and adding the factor needs the password.
    public var authenticateOnBiometricKeySetup: Bool
    /// How long (milliseconds) the biometry key of ``AssentPowerAuth/groupedBiometricAuthentication(_:_:)`` stays
    /// unlocked after its last use (10 000, as the mobile SDKs).
    public var biometryKeyKeepAliveMilliseconds: Int64

    /// A configuration pinning `masterPublicKey`.
    public init(
        masterPublicKey: String, invalidateBiometricFactorAfterChange: Bool? = nil,
        authenticateOnBiometricKeySetup: Bool = true, biometryKeyKeepAliveMilliseconds: Int64 = 10_000
    ) {
        self.masterPublicKey = masterPublicKey
        self.invalidateBiometricFactorAfterChange = invalidateBiometricFactorAfterChange
        self.authenticateOnBiometricKeySetup = authenticateOnBiometricKeySetup
        self.biometryKeyKeepAliveMilliseconds = biometryKeyKeepAliveMilliseconds
    }

    /// Whether a biometry factor added on a device of `platform` (its ``DeviceInfo/platform``) is invalidated by a
    /// change of the enrolled biometrics: ``invalidateBiometricFactorAfterChange`` when set; otherwise `false` on `ios`
    /// and `true` on `android` — and on every other platform, where the document names no default (Linux, macOS), the
    /// stricter `true`.
    public func invalidatesBiometricFactorAfterChange(platform: String) -> Bool {
        invalidateBiometricFactorAfterChange ?? !Self.isIOS(platform)
    }

    /// Whether adding the biometry factor on a device of `platform` authenticates the user: never on `ios`;
    /// elsewhere ``authenticateOnBiometricKeySetup``.
    public func authenticatesOnBiometricKeySetup(platform: String) -> Bool {
        authenticateOnBiometricKeySetup && !Self.isIOS(platform)
    }

    private static func isIOS(_ platform: String) -> Bool { platform.lowercased() == "ios" }
}
