import AssentCrypto
import AssentWire

/// The SDK's side of device attestation over the configured ``Attester``: the enrolment's statement, bound to a fresh
/// server challenge and the key being enrolled, and an approval's App Attest assertion. Without an attester both are
/// nil and nothing extra is sent, so enrolment and approvals are exactly what they are without attestation.
struct DeviceAttestation: Sendable {
    let api: ClientAPI
    let attester: (any Attester)?

    /// The `attestation` of an enrolment of `publicKey` (exactly the string the body carries) with the enrolment
    /// `token`: a challenge from `POST /v1/client/attestation/challenge`, then the attester's statement over the
    /// binding hash. Nil without an attester.
    func statement(token: String, publicKey: String) async throws(ClientFailure) -> AttestationStatement? {
        guard let attester else { return nil }
        let challenge = try await api.send(
            .createAttestationChallenge, authorization: .bearer(token), as: AttestationChallengeResponse.self)
        let binding = AttestationBinding.bindingHash(challenge: challenge.challenge, publicKey: publicKey)
        let statement: AttestationStatement
        do {
            statement = try await attester.attest(challenge: challenge.challenge, bindingHash: binding)
        } catch {
            throw ClientFailure("The attester could not attest the key: \(error)", AssentErrorCode.attestationFailed)
        }
        guard statement.challenge == challenge.challenge else {
            throw ClientFailure(
                "The attester's statement names another challenge than the server gave.", AssentErrorCode.attestationFailed)
        }
        return statement
    }

    /// The `appAttestAssertion` of an answer whose bound decision message is `decision`: the attester's assertion over
    /// `clientDataHash` = SHA-256(UTF-8 of the message); nil without an attester or when it makes none.
    func assertion(decision: String) async throws(ClientFailure) -> String? {
        guard let attester else { return nil }
        do {
            return try await attester.assertion(clientDataHash: SHA256.hash(Array(decision.utf8)))
        } catch {
            throw ClientFailure("The attester could not make an assertion: \(error)", AssentErrorCode.attestationFailed)
        }
    }
}
