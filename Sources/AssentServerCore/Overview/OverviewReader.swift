/// Reads a tenant's ``Overview``: the store's counters plus what this instance counted and has not flushed yet.
///
/// Staleness: a start, approval or denial made through this instance shows at once; one made through another instance
/// shows once that instance flushed it (``OverviewFlusher``, every 0.5 s, plus the add's own time). Expiries show
/// once the metrics sampler counted them (every `--metrics-sample` seconds, 15 by default, on whichever instance
/// gets there first). Totals are exact at the moment of the read: the database changes them in the transaction
/// that changes what they count.
package struct OverviewReader: Sendable {
    let store: any OverviewStore
    let tally: OverviewTally
    let clock: WallClock

    /// A reader of `store`'s counters and `tally`'s unflushed ones.
    package init(store: any OverviewStore, tally: OverviewTally, clock: WallClock) {
        self.store = store
        self.tally = tally
        self.clock = clock
    }

    /// The tenant's overview now.
    package func overview(tenantID: String) async throws -> Overview {
        let now = clock.nowMilliseconds()
        let first = ChallengeMinute.start(of: now) - Int64(Overview.minuteCount - 1) * ChallengeMinute.milliseconds
        // The snapshot first, the store second (see OverviewTally.snapshot).
        let snapshot = tally.snapshot(tenantID: tenantID)
        let stored = try await store.challengeMinutes(tenantID: tenantID, from: first, instance: tally.instance)
        let totals = try await store.overviewTotals(tenantID: tenantID)

        var minutes = [ChallengeCounts](repeating: ChallengeCounts(), count: Overview.minuteCount)
        var byKind: [Challenge.Kind: ChallengeCounts] = [.push: ChallengeCounts(), .qrCode: ChallengeCounts()]
        for row in stored.rows + snapshot.unflushed(storedThrough: stored.storedThrough) {
            let index = Int((row.minute - first) / ChallengeMinute.milliseconds)
            guard row.minute >= first, index < Overview.minuteCount else { continue }
            minutes[index] += row.counts
            byKind[row.kind, default: ChallengeCounts()] += row.counts
        }
        return Overview(
            generatedAt: now, firstMinute: first, minutes: minutes, lastHourByKind: byKind,
            totals: OverviewTotals(named: totals))
    }
}
