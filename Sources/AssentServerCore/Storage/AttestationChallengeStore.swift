/// The attestation challenges issued to devices (``AttestationChallenge``): stored when issued, read back to check
/// one an enrolment names. Every method is one atomic, durable unit (see ``ServerStore``).
package protocol AttestationChallengeStore: Sendable {
    /// Stores a newly issued challenge.
    func insertAttestationChallenge(_ challenge: AttestationChallenge) async throws
    /// The challenge `value` of the tenant, spent or not; nil when it was never issued there (or has been swept).
    func attestationChallenge(tenantID: String, value: String) async throws -> AttestationChallenge?
}
