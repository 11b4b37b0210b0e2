/// Thrown by ``ChallengeStore/answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:appAttestCounter:recording:)``
/// when the credential's stored App Attest counter is no longer below the one the answer stores (a concurrent answer
/// stored it, or a later one, first): nothing is changed.
package struct AppAttestCounterUsed: Error, Sendable {
    package init() {}
}
