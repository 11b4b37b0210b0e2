/// `PATCH /v1/users/{userId}/actions/{action}/{idempotencyKey}`: the backend sets an action's state.
public struct UpdateActionRequest: Encodable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The new state.
    public var state: ActionState

    /// Creates a request.
    public init(state: ActionState) { self.state = state }

    /// The field, its limit and description.
    package static let wireFields = WireFields<Self>("The backend sets an action's state.", blank: { Self(state: .allow) }, [
        .requiredValue("state", \.state, maxLength: 64, "The new state."),
    ])
}
