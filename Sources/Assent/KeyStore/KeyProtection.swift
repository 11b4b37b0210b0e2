/// Where a ``SigningKey``'s private half lives, as the SDK reports it to the app.
public enum KeyProtection: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the Secure Enclave: the private key never leaves the chip, and its access control (user presence,
    /// biometrics, passcode) is enforced by the hardware.
    case secureEnclave
    /// In software: the private key is in this process's memory while in use, protected at rest by the Keychain
    /// (where the Secure Enclave is unavailable, e.g. the iOS simulator) or by ``FileKeyStore`` on Linux. The SDK
    /// enforces the key's ``KeyAccessPolicy`` before each use.
    case software
}

extension SigningKey {
    /// Keys held in memory report ``KeyProtection/software``.
    public var protection: KeyProtection { .software }
}
