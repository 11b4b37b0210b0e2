/// A token's validation as the store did it in one unit
/// (``ActionStore/validateAction(tenantID:idempotencyKey:userID:actionCode:mark:at:)``).
package struct ActionValidation: Sendable, Hashable {
    /// The action named by the token's idempotency key, as it was read (before marking); nil when it is gone.
    package var action: Action?
    /// True when this validation marked the action validated (the first eligible one); false otherwise.
    package var marked: Bool

    /// What a store reports after reading `action` and marking it or not.
    package init(action: Action?, marked: Bool) {
        self.action = action
        self.marked = marked
    }
}
