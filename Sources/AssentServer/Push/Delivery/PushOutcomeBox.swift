/// A ``PushOutcome`` carried as an `Error`, for `Result`.
struct PushOutcomeBox: Error {
    let outcome: PushOutcome
    init(_ outcome: PushOutcome) { self.outcome = outcome }
}
