/// A tenant's live totals for the console overview, read from counter rows (never by counting the tables):
/// users, authenticators by verification method, PowerAuth activations by status.
///
/// The store keeps them by name (``name(_:)``): `users`, `authenticators:PUSH`, `activations:ACTIVE`, … — each row
/// changed by the database itself in the transaction that adds or deletes a user, authenticator or activation
/// (cascades included), see ``OverviewStore``.
package struct OverviewTotals: Sendable, Hashable {
    /// User records.
    package var users = 0
    /// Authenticators by verification method (`PUSH`, `QR_CODE`, …); methods with none are absent.
    package var authenticators: [String: Int] = [:]
    /// PowerAuth activations by status (`ACTIVE`, `BLOCKED`, `REMOVED`, …); statuses with none are absent.
    package var activations: [String: Int] = [:]

    /// No counts.
    package init() {}

    /// The totals from the store's named counters; unknown names are ignored, zero counts left out.
    package init(named: [String: Int]) {
        for (name, value) in named where value != 0 {
            if name == "users" {
                users = value
            } else if name.hasPrefix("authenticators:") {
                authenticators[String(name.dropFirst("authenticators:".count))] = value
            } else if name.hasPrefix("activations:") {
                activations[String(name.dropFirst("activations:".count))] = value
            }
        }
    }

    /// All authenticators.
    package var authenticatorCount: Int { authenticators.values.reduce(0, +) }
    /// All activations that are not removed.
    package var liveActivationCount: Int {
        activations.filter { $0.key != ActivationStatus.removed.rawValue }.values.reduce(0, +)
    }
}
