/// Retention was refused because the chain does not verify (dropping entries would erase the evidence).
package struct AuditChainBroken: Error, CustomStringConvertible, Sendable {
    /// The first bad sequence.
    package let sequence: Int64
    /// What is wrong there.
    package let problem: String

    /// `the audit chain is broken at sequence N: problem`.
    package var description: String { "the audit chain is broken at sequence \(sequence): \(problem)" }
}
