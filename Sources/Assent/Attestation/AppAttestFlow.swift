import AssentCrypto
package import AssentWire

/// What `AppAttestAttester` does, in shared code tested on Linux with a fake ``AppAttestService``.
///
/// Apple asks that each App Attest key be attested once. An enrolment attests a new credential key, so each
/// ``attest(challenge:bindingHash:)`` generates a new App Attest key, attests it with the binding hash as
/// `clientDataHash` (what the server's verifier recomputes), and only then keeps its key id in the ``KeyStore``
/// (a Keychain secret on Apple platforms) for later assertions, replacing the previous one.
package struct AppAttestFlow: Sendable {
    /// The secret name under which the current App Attest key id is kept.
    package static let keyIDSecretName = "assent.appattest.key-id"
    /// The `format` of the statements made here.
    package static let format = "apple-appattest"

    private let service: any AppAttestService
    private let keyStore: any KeyStore

    package init(service: any AppAttestService, keyStore: any KeyStore) {
        self.service = service
        self.keyStore = keyStore
    }

    /// Whether the device can attest.
    package var isSupported: Bool { service.isSupported }

    /// A statement for `challenge` committing to `bindingHash`.
    ///
    /// - Throws: ``AppAttestError`` `unsupported` when the device cannot attest (nothing is stored), `serviceFailure`
    ///   when DeviceCheck fails (the previous key id is kept).
    package func attest(challenge: String, bindingHash: [UInt8]) async throws -> AttestationStatement {
        guard service.isSupported else {
            throw AppAttestError(.unsupported, "App Attest is not supported on this device")
        }
        let keyID: String
        let object: [UInt8]
        do {
            keyID = try await service.generateKey()
            object = try await service.attestKey(keyID, clientDataHash: bindingHash)
        } catch {
            throw AppAttestError(.serviceFailure, "App Attest failed: \(error)")
        }
        try await keyStore.storeSecret(Array(keyID.utf8), named: Self.keyIDSecretName)
        return AttestationStatement(format: Self.format, challenge: challenge, keyId: keyID,
                                    attestationObject: Base64.encode(object))
    }

    /// Base64 of an assertion over `clientDataHash` by the last attested key, or nil when no key was attested here.
    package func assertion(clientDataHash: [UInt8]) async throws -> String? {
        guard service.isSupported, let stored = try await keyStore.loadSecret(named: Self.keyIDSecretName) else { return nil }
        let keyID = String(decoding: stored, as: UTF8.self)
        do {
            return Base64.encode(try await service.generateAssertion(keyID, clientDataHash: clientDataHash))
        } catch {
            throw AppAttestError(.serviceFailure, "App Attest assertion failed: \(error)")
        }
    }
}
