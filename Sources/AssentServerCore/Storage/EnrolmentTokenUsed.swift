/// The enrolment token's action already enrolled another credential (a push or QR key, or a PowerAuth activation),
/// or is gone.
package struct EnrolmentTokenUsed: Error, Sendable {
    /// The refusal.
    package init() {}
}
