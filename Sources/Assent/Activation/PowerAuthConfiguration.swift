/// What the SDK needs to activate a device with PowerAuth-style multi-factor signatures.
public struct PowerAuthConfiguration: Sendable, Hashable {
    /// The tenant's PowerAuth master public key (Base64 SEC1 uncompressed, 65 bytes), pinned here: an activation
    /// answer not signed by it is refused. `assent admin tenant powerauth --tenant ID` prints it.
    public var masterPublicKey: String
    /// Whether a change of the enrolled biometrics (a finger or face added or removed) invalidates the biometry
    /// factor's key. Applies to biometry factors added from now on; remove and add the factor to change an existing
    /// one. Default `true` (Android's default; iOS defaults to `false`): a newly enrolled finger cannot sign.
    public var invalidateBiometricFactorAfterChange: Bool
    /// How long (milliseconds) the biometry key of ``AssentPowerAuth/groupedBiometricAuthentication(_:_:)`` stays
    /// unlocked after its last use (10 000, as the mobile SDKs).
    public var biometryKeyKeepAliveMilliseconds: Int64

    /// A configuration pinning `masterPublicKey`.
    public init(
        masterPublicKey: String, invalidateBiometricFactorAfterChange: Bool = true,
        biometryKeyKeepAliveMilliseconds: Int64 = 10_000
    ) {
        self.masterPublicKey = masterPublicKey
        self.invalidateBiometricFactorAfterChange = invalidateBiometricFactorAfterChange
        self.biometryKeyKeepAliveMilliseconds = biometryKeyKeepAliveMilliseconds
    }
}
