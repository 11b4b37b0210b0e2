/// A store shared by several instances that tells each instance about challenge changes the others made.
package protocol ChallengeChangeFeed: Sendable {
    /// Starts calling `handler` (on a thread of the store's) with changes made by other instances.
    func watchChallengeChanges(_ handler: @escaping @Sendable (ChallengeChange) -> Void)
}
