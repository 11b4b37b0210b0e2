import AssentServerCore

/// The body of `GET /admin/api/overview`.
///
/// ```
/// {"tenantId": "…", "generatedAt": 1800000000000, "firstMinute": 1799996460000, "minuteMilliseconds": 60000,
///  "minutes": [{"started": 0, "approved": 0, "denied": 0, "expired": 0}, … 60, oldest first, the last is now],
///  "lastHour": {"started": …}, "lastHourByKind": {"push": {…}, "qr": {…}},
///  "totals": {"users": 1, "authenticators": 2, "authenticatorsByMethod": {"PUSH": 1, "QR_CODE": 1},
///             "activations": 0, "activationsByStatus": {}}}
/// ```
/// `activations` counts those not removed; `activationsByStatus` has every status with any.
struct ConsoleOverviewJSON: Encodable, Sendable {
    struct Totals: Encodable, Sendable {
        var users: Int
        var authenticators: Int
        var authenticatorsByMethod: [String: Int]
        var activations: Int
        var activationsByStatus: [String: Int]
    }

    var tenantId: String
    var generatedAt: Int64
    var firstMinute: Int64
    var minuteMilliseconds: Int64
    var minutes: [ChallengeCounts]
    var lastHour: ChallengeCounts
    var lastHourByKind: [String: ChallengeCounts]
    var totals: Totals

    init(_ overview: Overview, tenantID: String) {
        tenantId = tenantID
        generatedAt = overview.generatedAt
        firstMinute = overview.firstMinute
        minuteMilliseconds = ChallengeMinute.milliseconds
        minutes = overview.minutes
        lastHour = overview.lastHour
        lastHourByKind = Dictionary(uniqueKeysWithValues: overview.lastHourByKind.map { ($0.key.rawValue, $0.value) })
        totals = Totals(
            users: overview.totals.users, authenticators: overview.totals.authenticatorCount,
            authenticatorsByMethod: overview.totals.authenticators, activations: overview.totals.liveActivationCount,
            activationsByStatus: overview.totals.activations)
    }
}
