import Foundation

/// A challenge's new state, as one instance announces it to the others (the store carries it; domain code only
/// sees this value).
package struct ChallengeChange: Sendable, Hashable {
    /// The challenge's tenant.
    package var tenantID: String
    /// The challenge.
    package var challengeID: String
    /// Its new state.
    package var state: Challenge.State

    /// A change of `challengeID` to `state`.
    package init(tenantID: String, challengeID: String, state: Challenge.State) {
        self.tenantID = tenantID
        self.challengeID = challengeID
        self.state = state
    }

    private struct Envelope: Codable {
        var i: String
        var t: String
        var c: String
        var s: String
    }

    /// The announcement's text, marked with the announcing instance.
    package func payload(from instance: String) -> String {
        let envelope = Envelope(i: instance, t: tenantID, c: challengeID, s: state.rawValue)
        return (try? JSONEncoder().encode(envelope)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads an announcement; nil when it is not one.
    package static func parse(_ payload: String) -> (instance: String, change: ChallengeChange)? {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(payload.utf8)),
              let state = Challenge.State(rawValue: envelope.s)
        else { return nil }
        return (envelope.i, ChallengeChange(tenantID: envelope.t, challengeID: envelope.c, state: state))
    }
}
