/// Rows per table of a seeding: those a batch holds, or those a write actually inserted (a row already there — the same
/// seed run again — is not counted).
package struct SeedCounts: Sendable, Hashable, Codable {
    package var users = 0
    package var authenticators = 0
    package var actions = 0
    package var challenges = 0
    package var activations = 0

    package init(users: Int = 0, authenticators: Int = 0, actions: Int = 0, challenges: Int = 0, activations: Int = 0) {
        self.users = users
        self.authenticators = authenticators
        self.actions = actions
        self.challenges = challenges
        self.activations = activations
    }

    /// All rows.
    package var total: Int { users + authenticators + actions + challenges + activations }

    package static func + (left: SeedCounts, right: SeedCounts) -> SeedCounts {
        SeedCounts(
            users: left.users + right.users, authenticators: left.authenticators + right.authenticators,
            actions: left.actions + right.actions, challenges: left.challenges + right.challenges,
            activations: left.activations + right.activations)
    }
}
