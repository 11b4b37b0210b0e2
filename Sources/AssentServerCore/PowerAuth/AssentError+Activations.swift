extension AssentError.Code {
    /// The tenant requires a PowerAuth factor signature this request lacks.
    package static let factorRequired = AssentError.Code(wire: "factor_required")
    /// No such activation in this tenant.
    package static let activationNotFound = AssentError.Code(wire: "activation_not_found")
    /// The activation is not in a state that allows the change.
    package static let invalidState = AssentError.Code(wire: "invalid_state")
}
