/// What the admin console's overview shows for one tenant: live totals, and per-minute challenge counts over the last
/// hour. Built by ``OverviewReader`` from counters only — nothing here counts a table.
package struct Overview: Sendable, Hashable {
    /// Minutes in ``minutes``.
    package static let minuteCount = 60

    /// When it was read (milliseconds).
    package var generatedAt: Int64
    /// The start of the oldest minute in ``minutes``; the newest is the minute ``generatedAt`` falls in.
    package var firstMinute: Int64
    /// The last ``minuteCount`` minutes, oldest first, push and QR together.
    package var minutes: [ChallengeCounts]
    /// The same hour summed, by kind.
    package var lastHourByKind: [Challenge.Kind: ChallengeCounts]
    /// Users, authenticators, activations.
    package var totals: OverviewTotals

    /// The hour summed over both kinds.
    package var lastHour: ChallengeCounts { minutes.reduce(ChallengeCounts(), +) }
}
