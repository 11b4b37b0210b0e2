#if canImport(CryptoKit) && canImport(LocalAuthentication)
import AssentCrypto
import CryptoKit
import Foundation
import LocalAuthentication

/// A P-256 key in the Secure Enclave. It keeps only the key's `dataRepresentation` (an encrypted blob that only this
/// device's enclave can use) and opens the key for each signature with the `LAContext` the SDK's authenticator last
/// evaluated, so a key whose access control asks for the user does not prompt a second time.
///
/// Apple-only (checked by reading; see docs/apple.md). Apple documentation of each API called:
/// - SecureEnclave.P256.Signing.PrivateKey.init(dataRepresentation:authenticationContext:):
///   https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(datarepresentation:authenticationcontext:)
/// - SecureEnclave.P256.Signing.PrivateKey.signature(for:):
///   https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/signature(for:)
/// - P256.Signing.ECDSASignature.derRepresentation:
///   https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature/derrepresentation
struct SecureEnclaveSigningKey: SigningKey {
    let dataRepresentation: [UInt8]
    let publicKey: AssentCrypto.P256.PublicKey
    let accessPolicy: KeyAccessPolicy
    let authenticationContext: @Sendable () -> LAContext?

    var userPresenceRequired: Bool { accessPolicy.userPresenceRequired }
    var protection: KeyProtection { .secureEnclave }

    func signature(for message: [UInt8]) async throws -> [UInt8] {
        let key = try SecureEnclave.P256.Signing.PrivateKey(
            dataRepresentation: Data(dataRepresentation), authenticationContext: authenticationContext())
        return Array(try key.signature(for: Data(message)).derRepresentation)
    }
}

#endif
