/// How many challenges were started, approved, denied and expired (in one minute, or summed over several): the four
/// series of the console overview's chart.
package struct ChallengeCounts: Sendable, Hashable, Codable {
    /// Started by an initiating page (push) or a QR page.
    package var started = 0
    /// Approved by a device.
    package var approved = 0
    /// Denied by a device (a wrong verification code declines too).
    package var denied = 0
    /// Still unanswered when they expired.
    package var expired = 0

    /// All zero.
    package init() {}

    /// These counts.
    package init(started: Int, approved: Int, denied: Int, expired: Int) {
        self.started = started
        self.approved = approved
        self.denied = denied
        self.expired = expired
    }

    /// The count of `outcome`.
    package subscript(outcome: DomainMetrics.ChallengeOutcome) -> Int {
        get {
            switch outcome {
            case .started: started
            case .approved: approved
            case .denied: denied
            case .expired: expired
            }
        }
        set {
            switch outcome {
            case .started: started = newValue
            case .approved: approved = newValue
            case .denied: denied = newValue
            case .expired: expired = newValue
            }
        }
    }

    /// Whether every count is 0.
    package var isZero: Bool { started == 0 && approved == 0 && denied == 0 && expired == 0 }

    /// The sum, count by count.
    package static func + (lhs: ChallengeCounts, rhs: ChallengeCounts) -> ChallengeCounts {
        ChallengeCounts(
            started: lhs.started + rhs.started, approved: lhs.approved + rhs.approved, denied: lhs.denied + rhs.denied,
            expired: lhs.expired + rhs.expired)
    }

    /// Adds `rhs`, count by count.
    package static func += (lhs: inout ChallengeCounts, rhs: ChallengeCounts) { lhs = lhs + rhs }
}
