/// The outcome of checking a tenant's audit chain (``AuditChain/verify(_:tenantID:key:)``).
package struct AuditVerification: Sendable, Equatable {
    /// How many entries were checked.
    package var entries: Int
    /// The first sequence number at which the chain is broken, nil when it verifies.
    package var firstBadSequence: Int64?
    /// Why it is broken there (empty when it verifies).
    package var problem: String

    /// Whether every entry is where it was written, as it was written.
    package var isIntact: Bool { firstBadSequence == nil }

    /// An intact chain of `entries`.
    package static func intact(_ entries: Int) -> AuditVerification {
        AuditVerification(entries: entries, firstBadSequence: nil, problem: "")
    }

    /// A chain broken at `sequence` for `problem`.
    package static func broken(_ entries: Int, at sequence: Int64, _ problem: String) -> AuditVerification {
        AuditVerification(entries: entries, firstBadSequence: sequence, problem: problem)
    }
}
