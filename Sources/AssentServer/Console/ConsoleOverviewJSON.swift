import AssentServerCore
import AssentWire

/// The body of `GET /admin/api/overview`.
///
/// ```
/// {"tenantId": "…", "generatedAt": 1800000000000, "firstMinute": 1799996460000, "minuteMilliseconds": 60000,
///  "minutes": [{"started": 0, "approved": 0, "denied": 0, "expired": 0}, … 60, oldest first, the last is now],
///  "lastHour": {"started": …}, "lastHourByKind": {"push": {…}, "qr": {…}},
///  "totals": {"users": 1, "authenticators": 2, "authenticatorsByMethod": {"PUSH": 1, "DEVICE": 1},
///             "activations": 0, "activationsByStatus": {}},
///  "labels": {"PUSH": "Push", "DEVICE": "QR code device"}}
/// ```
/// `activations` counts those not removed; `activationsByStatus` has every status with any. `labels` gives the words
/// the page shows (``ConsoleWords``) for each method and status the totals name.
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
    var labels: [String: String]

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
        var labels: [String: String] = [:]
        for method in overview.totals.authenticators.keys {
            labels[method] = ConsoleWords.method(VerificationMethod(rawValue: method))
        }
        for status in overview.totals.activations.keys {
            labels[status] = ActivationStatus(rawValue: status).map(ConsoleWords.activationStatus) ?? ConsoleWords.sentence(status)
        }
        self.labels = labels
    }
}
