import AssentCrypto

/// Builds rows of a busy tenant's authentication history for `assent admin seed-sign-ins` (a benchmark's month of
/// sign-ins, or old rows for a retention test): row `i` of `count` belongs to user ``SeededDevice/userID(_:)`` of
/// `i % users`, at `now - days` plus `i + ½` steps of `days / count` (oldest first, none on a day's boundary), with a
/// mix of outcomes (per 50 rows: 40 approved, 5 declined, 3 expired, 2 refused), methods (push, every fourth qr), and
/// four action codes. Everything follows from the index, so the same arguments make the same rows.
package struct SignInSeeder: Sendable {
    let tenantID: String
    let count: Int
    let users: Int
    let days: Int
    let now: Int64

    /// The action codes the rows name, in turn.
    package static let actionCodes = ["signIn", "payment", "changeEmail", "addPayee"]

    /// A seeder of `count` rows over `users` users and the `days` days before `now` (milliseconds).
    package init(tenantID: String, count: Int, users: Int, days: Int, now: Int64) {
        self.tenantID = tenantID
        self.count = max(1, count)
        self.users = max(1, users)
        self.days = max(1, days)
        self.now = now
    }

    /// The outcome of row `index`, with its reason.
    package static func outcome(_ index: Int) -> (SignIn.Outcome, String?) {
        switch index % 50 {
        case 0..<40: (.approved, nil)
        case 40..<44: (.declined, nil)
        case 44: (.declined, "fraud_reported")
        case 45..<48: (.expired, "expired")
        default: (.refused, "factor_required")
        }
    }

    /// The time of row `index`, milliseconds.
    package func at(_ index: Int) -> Int64 {
        let span = Int64(days) * 86_400_000
        return now - span + Int64((Double(index) + 0.5) * Double(span) / Double(count))
    }

    /// Rows `indices`.
    package func batch(_ indices: Range<Int>) -> [SignIn] {
        indices.map { index in
            let (outcome, reason) = Self.outcome(index)
            let user = index % users
            var signIn = SignIn(
                tenantID: tenantID, at: at(index), userID: SeededDevice.userID(user), method: index % 4 == 3 ? "qr" : "push",
                outcome: outcome, reason: reason)
            signIn.actionCode = Self.actionCodes[(index / 7) % Self.actionCodes.count]
            signIn.credentialID = "seed-credential-\(user)"
            signIn.ipAddress = "203.0.113.\(user % 250 + 1)"
            signIn.userAgent = "assent-seed"
            signIn.verificationMilliseconds = outcome == .expired ? nil : Int64(800 + index % 9000)
            signIn.challengeID = "seed-challenge-\(index)"
            return signIn
        }
    }
}
