import AssentCrypto

/// Verifies App Attest assertions — Apple's per-request proof that the genuine app, holding the attested key, signed
/// this request — every step of Apple's "Validating assertions".
///
/// Decisions: the size limit is checked before any parsing; the steps run in Apple's order (signature over
/// `nonce = SHA-256(authenticatorData ‖ clientDataHash)` with the key stored at the attestation, rpIdHash, counter)
/// and each refusal names the one that failed. The counter must be strictly greater than the last one accepted, so
/// a replay (the same counter) and a rollback (a lower one) are both `counter`; storing the new counter, atomically
/// with what the assertion authorised, is the caller's. `clientDataHash` is taken as bytes, whatever rule made them
/// (Assent: SHA-256 of the bound decision message); the app and the server must use the same rule.
package struct AppAttestAssertionVerifier: Sendable {
    /// A verifier (it needs no trust anchors: the key was verified at the attestation).
    package init() {}

    /// Verifies an assertion (CBOR `{signature, authenticatorData}`) made by the App Attest key `publicKey`.
    ///
    /// - Parameters:
    ///   - assertion: the decoded assertion, at most ``AttestationLimits/maximumDecodedBytes``.
    ///   - clientDataHash: what the app passed to `generateAssertion(_:clientDataHash:)`.
    ///   - publicKey: the attested key from ``AppAttestVerdict/publicKey`` (an uncompressed P-256 point).
    ///   - appIds: the app ids accepted (Assent: the one the attestation's verdict recorded).
    ///   - lastCounter: the counter of the last assertion accepted from this key (0 after the attestation).
    /// - Throws: `signature`, `app id`, `counter` (not strictly greater: a replay or a rollback), `malformed`, `too large`.
    package func verify(
        _ assertion: [UInt8], clientDataHash: [UInt8], publicKey: [UInt8], appIds: [String], lastCounter: UInt32
    ) throws(AttestationError) -> AppAttestAssertionVerdict {
        guard assertion.count <= AttestationLimits.maximumDecodedBytes else {
            throw AttestationError(.tooLarge, "an assertion of \(assertion.count) bytes")
        }
        let decoded = try CBORReader.decode(assertion)
        guard let signature = decoded["signature"]?.bytes, let authDataBytes = decoded["authenticatorData"]?.bytes else {
            throw AttestationError(.malformed, "signature or authenticatorData missing")
        }
        let authData = try AuthenticatorData(authDataBytes, attested: false)
        let key: P256.PublicKey
        do {
            key = try P256.PublicKey(x962: publicKey)
        } catch {
            throw AttestationError(.signature, "the stored App Attest key is not a P-256 point")
        }
        // 1–3. nonce = SHA-256(authenticatorData ‖ clientDataHash), signed by the attested key.
        let nonce = SHA256.hash(authDataBytes + clientDataHash)
        guard key.isValidSignature(signature, for: nonce) else {
            throw AttestationError(.signature, "the assertion's signature does not verify with the stored key")
        }
        // 4. rpIdHash is SHA-256 of the app id.
        guard let appId = appIds.first(where: { ConstantTime.equals(SHA256.hash(Array($0.utf8)), authData.rpIdHash) }) else {
            throw AttestationError(.appId, "the rpIdHash is not SHA-256 of an allowed app id")
        }
        // 5. The counter grows.
        guard authData.counter > lastCounter else {
            throw AttestationError(.counter, "the counter \(authData.counter) is not above the last one seen, \(lastCounter)")
        }
        return AppAttestAssertionVerdict(appId: appId, counter: authData.counter)
    }
}
