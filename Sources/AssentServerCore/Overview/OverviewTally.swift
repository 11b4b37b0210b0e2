import AssentSync
import Foundation

/// This instance's challenge counts per tenant, minute and kind that are not in the store yet.
///
/// Starts, approvals and denials happen in requests; counting them in the request's transaction would make every flow
/// of a tenant update one shared row, which serialises them across instances on PostgreSQL. Instead each instance
/// counts here, in memory, beside ``DomainMetrics``, and ``OverviewFlusher`` adds what it counted to the store about
/// twice a second as one numbered batch (one row per tenant, minute and kind), adding to what other instances added.
/// The overview reads the store and adds what this instance counted that the store does not have yet
/// (``Snapshot/unflushed(storedThrough:)``), so a change made through this instance shows at once, and one made
/// through another within that instance's flush interval.
///
/// A batch keeps its number until the store took it (``ChallengeMinuteBatch``): one whose add failed is sent again, as
/// it was, before anything newer, and the store ignores a batch it already has, so nothing is counted twice. What an
/// instance counted but had not flushed when it crashed is lost (at most one flush interval of its counts, plus what
/// piled up while the database was unreachable); a graceful stop flushes first.
package final class OverviewTally: Sendable {
    private struct State {
        var pending: [ChallengeMinute.Key: ChallengeCounts] = [:]
        var inFlight: ChallengeMinuteBatch?
        var lastSequence: Int64 = 0
    }

    /// What this instance had not flushed for one tenant at one moment.
    package struct Snapshot: Sendable {
        /// The instance whose counts these are.
        package let instance: String
        /// The batch being added, if any.
        package let inFlight: ChallengeMinuteBatch?
        /// Counted since; they go into batch ``pendingSequence`` (or a later one).
        package let pending: [ChallengeMinute]
        /// The number the pending counts' batch will have at the earliest.
        package let pendingSequence: Int64

        /// The rows the store does not have, given the highest batch number of this instance it has.
        package func unflushed(storedThrough: Int64) -> [ChallengeMinute] {
            var rows: [ChallengeMinute] = []
            if let inFlight, inFlight.sequence > storedThrough { rows += inFlight.rows }
            if pendingSequence > storedThrough { rows += pending }
            return rows
        }
    }

    /// This instance's id in the store's record of batches.
    package let instance: String
    private let state = AssentLock(State())
    private let clock: WallClock

    /// A tally that files each count under the minute `clock` says it happened in.
    package init(clock: WallClock, instance: String = UUID().uuidString.lowercased()) {
        self.clock = clock
        self.instance = instance
    }

    /// Counts `count` challenges of `kind` of `tenantID` reaching `outcome` now.
    package func record(tenantID: String, kind: Challenge.Kind, outcome: DomainMetrics.ChallengeOutcome, count: Int = 1) {
        guard count > 0 else { return }
        let key = ChallengeMinute.Key(
            tenantID: tenantID, minute: ChallengeMinute.start(of: clock.nowMilliseconds()), kind: kind.rawValue)
        state.withLock { $0.pending[key, default: ChallengeCounts()][outcome] += count }
    }

    /// The batch to add to the store next: the last one again when its add did not finish, else everything counted
    /// since (under the next number); nil when there is nothing to add. Call ``flushed(_:)`` once the store took it.
    package func nextBatch() -> ChallengeMinuteBatch? {
        state.withLock { state in
            if let inFlight = state.inFlight { return inFlight }
            guard !state.pending.isEmpty else { return nil }
            let rows = state.pending.compactMap { key, counts in
                Challenge.Kind(rawValue: key.kind).map {
                    ChallengeMinute(tenantID: key.tenantID, minute: key.minute, kind: $0, counts: counts)
                }
            }
            state.pending = [:]
            state.lastSequence += 1
            let batch = ChallengeMinuteBatch(
                instance: instance, sequence: state.lastSequence, createdAt: clock.nowMilliseconds(), rows: rows)
            state.inFlight = batch
            return batch
        }
    }

    /// The store took `batch` (or had it already): its counts are the store's now.
    package func flushed(_ batch: ChallengeMinuteBatch) {
        state.withLock { state in
            if state.inFlight?.sequence == batch.sequence { state.inFlight = nil }
        }
    }

    /// What this instance has not flushed for `tenantID`. Take it before reading the store, and keep of it only what
    /// the store turns out not to have (``Snapshot/unflushed(storedThrough:)``): then a batch stored between the two
    /// reads is counted once, and counts made after the snapshot wait for the next read.
    package func snapshot(tenantID: String) -> Snapshot {
        state.withLock { state in
            let pending = state.pending.compactMap { key, counts -> ChallengeMinute? in
                guard key.tenantID == tenantID, let kind = Challenge.Kind(rawValue: key.kind) else { return nil }
                return ChallengeMinute(tenantID: tenantID, minute: key.minute, kind: kind, counts: counts)
            }
            var inFlight = state.inFlight
            inFlight?.rows.removeAll { $0.tenantID != tenantID }
            return Snapshot(
                instance: instance, inFlight: inFlight, pending: pending,
                pendingSequence: state.lastSequence + 1)
        }
    }
}
