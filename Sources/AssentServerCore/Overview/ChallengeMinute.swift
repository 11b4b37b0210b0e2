/// One tenant's challenge counts of one kind in one minute: a row of the overview's per-minute counters.
package struct ChallengeMinute: Sendable, Hashable {
    /// Milliseconds per counted minute.
    package static let milliseconds: Int64 = 60_000

    /// The tenant.
    package var tenantID: String
    /// When the minute starts (milliseconds since the epoch, a multiple of ``milliseconds``).
    package var minute: Int64
    /// Push or QR.
    package var kind: Challenge.Kind
    /// What happened in that minute.
    package var counts: ChallengeCounts

    /// A row.
    package init(tenantID: String, minute: Int64, kind: Challenge.Kind, counts: ChallengeCounts) {
        self.tenantID = tenantID
        self.minute = minute
        self.kind = kind
        self.counts = counts
    }

    /// The start of the minute `milliseconds` falls in.
    package static func start(of milliseconds: Int64) -> Int64 {
        let remainder = milliseconds % Self.milliseconds
        return milliseconds - (remainder < 0 ? remainder + Self.milliseconds : remainder)
    }

    /// The row's key: tenant, minute and kind, in the order every writer takes the rows (so two instances adding to
    /// the same rows at once lock them in one order and never deadlock).
    package var key: Key { Key(tenantID: tenantID, minute: minute, kind: kind.rawValue) }

    /// A row's identity.
    package struct Key: Hashable, Comparable, Sendable {
        /// The tenant.
        package var tenantID: String
        /// The minute's start.
        package var minute: Int64
        /// The kind's stored spelling.
        package var kind: String

        package static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.tenantID, lhs.minute, lhs.kind) < (rhs.tenantID, rhs.minute, rhs.kind)
        }
    }
}
