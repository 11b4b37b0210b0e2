/// The Secure Enclave as ``KeychainKeyStore`` uses it. The Apple-only `CryptoKitSecureEnclaveKeys` implements it with
/// `SecureEnclave.P256.Signing.PrivateKey`; tests use a fake that can also be "unavailable".
package protocol SecureEnclaveKeys: Sendable {
    /// Whether this device has a Secure Enclave the app may use (false in the simulator and on Macs without one).
    var isAvailable: Bool { get }
    /// A new key in the enclave with `access`, and its `dataRepresentation` (an encrypted blob only this device's
    /// enclave can use) to keep in the Keychain.
    func createKey(access: KeychainAccessControl, accessPolicy: KeyAccessPolicy) throws -> (key: any SigningKey, data: [UInt8])
    /// The key whose `dataRepresentation` is `data`.
    func restoreKey(data: [UInt8], accessPolicy: KeyAccessPolicy) throws -> any SigningKey
}
