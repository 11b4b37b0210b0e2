/// What ``ChallengeStore/answerChallenge(tenantID:id:from:approved:authenticatorID:verificationMethod:now:pushGuardOf:)``
/// did: the answered challenge, and the push guard it read after the answer when asked to.
package struct ChallengeAnswerOutcome: Sendable, Hashable {
    /// The challenge as answered; nil when it was not open (expired, answered already, or not answerable by the
    /// authenticator).
    package var challenge: Challenge?
    /// The push guard of the user the caller named and the expiries it has not counted, read after the answer
    /// committed; nil when that read did not happen (no user named, or no answer recorded).
    package var pushGuard: PushGuardRead?

    /// What a store reports after answering (or failing to answer) `challenge`.
    package init(challenge: Challenge?, pushGuard: PushGuardRead? = nil) {
        self.challenge = challenge
        self.pushGuard = pushGuard
    }
}
