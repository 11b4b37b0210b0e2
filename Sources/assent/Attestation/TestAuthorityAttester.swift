import Assent
import AssentAttestation
import AssentCrypto
import AssentWire

/// The CLI device's ``Attester`` (`--attest-with DIR`): attestations made by a test authority, as a phone's platform
/// would make them, so the whole attested flow runs on this machine against a server given the authority's root
/// (`assentd --attestation-roots DIR/root.pem`).
///
/// `android-key`: a chain whose leaf key is the credential key, found in the device's key store as the key whose binding
/// hash is the one asked for (the SDK creates the key before it attests), so it certifies exactly the key enrolled.
/// `apple-appattest`: an attestation of a new App Attest key vouching for the credential key through the binding
/// hash. No assertions: the CLI keeps no App Attest key after enrolment.
struct TestAuthorityAttester: Attester {
    /// The formats `--attest-format` takes.
    static let formats = [AndroidKeyAttestationVerifier.format, AppAttestVerifier.format]

    let authority: AttestationTestAuthority
    let format: String
    let appleAppId: String
    let android: AttestationTestAuthority.AndroidClaims
    let keyStore: any KeyStore

    /// A failure to attest, shown as the SDK's `attestation_failed`.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func attest(challenge: String, bindingHash: [UInt8]) async throws -> AttestationStatement {
        if format == AppAttestVerifier.format {
            let made = try authority.appAttest(clientDataHash: bindingHash, appId: appleAppId)
            return AttestationStatement(
                format: format, challenge: challenge, keyId: Base64.encode(made.keyId),
                attestationObject: Base64.encode(made.object))
        }
        for name in [AssentPush.keyName, AssentQRCode.keyName] {
            guard let key = try await keyStore.loadKey(named: name) else { continue }
            let publicKey = key.publicKey
            guard AttestationBinding.bindingHash(challenge: challenge, publicKey: Base64.encode(publicKey.spkiDER)) == bindingHash
            else { continue }
            let chain = try authority.androidKey(credentialKey: publicKey, challenge: bindingHash, claims: android)
            return AttestationStatement(format: format, challenge: challenge, certificateChain: chain.map(Base64.encode))
        }
        throw Failure(description: "no key on this device matches the binding hash")
    }

    func assertion(clientDataHash: [UInt8]) async throws -> String? { nil }
}
