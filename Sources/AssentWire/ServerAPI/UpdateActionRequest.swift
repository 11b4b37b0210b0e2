/// `PATCH /v1/users/{userId}/actions/{action}/{idempotencyKey}`: the backend sets an action's state.
public struct UpdateActionRequest: Encodable, Sendable, Hashable, WireDecodable {
    /// The new state.
    public var state: ActionState

    /// Creates a request.
    public init(state: ActionState) { self.state = state }

    /// Reads the request; `state` must be one of ``ActionState``'s spellings.
    public init(reading body: some WireObject) throws(WireDecodingError) {
        let name = try body.requiredString("state", maxLength: 64)
        guard let state = ActionState(rawValue: name) else {
            throw .notOneOf("state", ActionState.allCases.map(\.rawValue))
        }
        self.state = state
    }
}
