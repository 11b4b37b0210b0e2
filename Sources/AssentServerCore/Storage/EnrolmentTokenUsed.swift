/// The enrolment token's action already enrolled another key.
package struct EnrolmentTokenUsed: Error, Sendable {
    /// The refusal.
    package init() {}
}
