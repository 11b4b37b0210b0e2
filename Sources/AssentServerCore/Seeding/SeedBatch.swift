/// The rows of one batch of seeded users (``Seeder``), written by ``SeedStore/insertSeedBatch(_:)`` as one
/// transaction, in this order: users first, since everything else names one.
package struct SeedBatch: Sendable {
    package var users: [User] = []
    package var authenticators: [Authenticator] = []
    package var actions: [Action] = []
    package var challenges: [Challenge] = []
    package var activations: [ActivationRecord] = []

    package init() {}

    /// How many rows of each kind the batch holds.
    package var counts: SeedCounts {
        SeedCounts(
            users: users.count, authenticators: authenticators.count, actions: actions.count,
            challenges: challenges.count, activations: activations.count)
    }
}
