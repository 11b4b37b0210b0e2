#if canImport(CryptoKit) && canImport(LocalAuthentication)
import AssentCrypto
import CryptoKit
import Foundation
import LocalAuthentication
import Security

/// ``SecureEnclaveKeys`` on the device's Secure Enclave through CryptoKit. The access control is decided by
/// ``KeychainAccessControl`` (shared, tested on Linux); this file turns its flags into `SecAccessControlCreateFlags`
/// one for one.
///
/// Apple-only (checked by reading; see docs/apple.md). Apple documentation of each API called:
/// - SecureEnclave.isAvailable: https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable
/// - SecAccessControlCreateWithFlags(_:_:_:_:):
///   https://developer.apple.com/documentation/security/secaccesscontrolcreatewithflags(_:_:_:_:)
/// - SecAccessControlCreateFlags (privateKeyUsage, userPresence, biometryCurrentSet, devicePasscode, or):
///   https://developer.apple.com/documentation/security/secaccesscontrolcreateflags
/// - SecureEnclave.P256.Signing.PrivateKey.init(compactRepresentable:accessControl:authenticationContext:):
///   https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:)
/// - dataRepresentation, publicKey.x963Representation:
///   https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey
struct CryptoKitSecureEnclaveKeys: SecureEnclaveKeys {
    /// The `LAContext` the SDK's authenticator last evaluated (nil: the system prompts when the key is used).
    let authenticationContext: @Sendable () -> LAContext?

    var isAvailable: Bool { SecureEnclave.isAvailable }

    func createKey(access: KeychainAccessControl, accessPolicy: KeyAccessPolicy) throws -> (key: any SigningKey, data: [UInt8]) {
        var flags: SecAccessControlCreateFlags = []
        for flag in access.flags {
            switch flag {
            case .privateKeyUsage: flags.insert(.privateKeyUsage)
            case .userPresence: flags.insert(.userPresence)
            case .biometryCurrentSet: flags.insert(.biometryCurrentSet)
            case .devicePasscode: flags.insert(.devicePasscode)
            case .or: flags.insert(.or)
            }
        }
        var error: Unmanaged<CFError>?
        guard let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &error) else {
            let reason = error.map { String(describing: $0.takeRetainedValue()) } ?? "no error given"
            throw KeyStoreError(.ioFailure, "SecAccessControlCreateWithFlags failed: \(reason)")
        }
        let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: control, authenticationContext: authenticationContext())
        let data = Array(key.dataRepresentation)
        let publicKey = try AssentCrypto.P256.PublicKey(x962: Array(key.publicKey.x963Representation))
        let signingKey = SecureEnclaveSigningKey(dataRepresentation: data, publicKey: publicKey, accessPolicy: accessPolicy,
                                                 authenticationContext: authenticationContext)
        return (signingKey, data)
    }

    /// Opens the key once to read its public half (no prompt: reading the public key needs no authentication).
    func restoreKey(data: [UInt8], accessPolicy: KeyAccessPolicy) throws -> any SigningKey {
        let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(data), authenticationContext: authenticationContext())
        let publicKey = try AssentCrypto.P256.PublicKey(x962: Array(key.publicKey.x963Representation))
        return SecureEnclaveSigningKey(dataRepresentation: data, publicKey: publicKey, accessPolicy: accessPolicy,
                                       authenticationContext: authenticationContext)
    }
}

#endif
