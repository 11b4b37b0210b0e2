extension AssentError.Code {
    /// The tenant requires a PowerAuth factor signature this request lacks (403).
    static let factorRequired = AssentError.Code(wire: "factor_required", status: 403)
    /// No such activation in this tenant (404).
    static let activationNotFound = AssentError.Code(wire: "activation_not_found", status: 404)
    /// The activation is not in a state that allows the change (409).
    static let invalidState = AssentError.Code(wire: "invalid_state", status: 409)
}
