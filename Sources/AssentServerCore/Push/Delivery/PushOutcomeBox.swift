/// A ``PushOutcome`` carried as an `Error`, for `Result`.
package struct PushOutcomeBox: Error {
    package let outcome: PushOutcome
    package init(_ outcome: PushOutcome) { self.outcome = outcome }
}
