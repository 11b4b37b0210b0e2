package import AssentWire

/// The state a tracked action gets, by whether its user has any authenticator when it is recorded (the tenant's rule,
/// ``TenantSettings/state(forAction:isEnrolled:)``, decided before the store knows which applies).
package struct TrackStates: Sendable, Hashable {
    /// The state when the user has at least one authenticator.
    package var enrolled: ActionState
    /// The state when the user has none.
    package var notEnrolled: ActionState

    /// The two states.
    package init(enrolled: ActionState, notEnrolled: ActionState) {
        self.enrolled = enrolled
        self.notEnrolled = notEnrolled
    }

    /// The state for a user with `authenticators`.
    package func state(for authenticators: [Authenticator]) -> ActionState {
        authenticators.isEmpty ? notEnrolled : enrolled
    }
}
