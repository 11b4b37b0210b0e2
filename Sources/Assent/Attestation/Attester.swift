public import AssentWire

/// Produces device attestations for credential keys the SDK enrols, and assertions for approvals.
///
/// Given to ``Assent/init(tenantID:baseURL:keyStore:transport:clock:device:userAuthenticator:powerAuth:attester:)``;
/// without one (the default, and the only choice on Linux) the SDK enrols without an attestation. With one,
/// `push.addCredential` and `qr.addCredential` ask the server for a challenge (`POST /v1/client/attestation/challenge`
/// with the enrolment token), hand the attester the challenge and the binding hash
/// (``AssentWire/AttestationBinding/bindingHash(challenge:publicKey:)`` over the exact public key they send), and send
/// the statement as the enrolment's `attestation`; every approval asks it for an assertion over the SHA-256 of the bound
/// decision message and sends it as `appAttestAssertion`. An attester that throws fails the call with
/// ``AssentErrorCode/attestationFailed`` and nothing is sent.
public protocol Attester: Sendable {
    /// An attestation committing to `bindingHash` = SHA-256("assent-attest-v1|" + challenge + "|" + publicKey).
    func attest(challenge: String, bindingHash: [UInt8]) async throws -> AttestationStatement
    /// An App Attest assertion (base64 of CBOR {signature, authenticatorData}) over `clientDataHash`, or nil when
    /// this attester makes none (Android key attestation has no assertions).
    func assertion(clientDataHash: [UInt8]) async throws -> String?
}
