/// The life cycle of a PowerAuth activation. `BLOCKED` can be unblocked; `REMOVED` is final.
package enum ActivationStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// Created but not yet handed to the device (Assent creates and hands over in one step, so it is not stored).
    case created = "CREATED"
    /// The device has its keys; the backend must commit before signatures count.
    case pendingCommit = "PENDING_COMMIT"
    /// Signatures verify.
    case active = "ACTIVE"
    /// Too many failed attempts, or blocked by the backend.
    case blocked = "BLOCKED"
    /// Gone for good.
    case removed = "REMOVED"

    /// The status-blob code: 1 CREATED … 5 REMOVED.
    package var code: UInt8 {
        switch self {
        case .created: return 1
        case .pendingCommit: return 2
        case .active: return 3
        case .blocked: return 4
        case .removed: return 5
        }
    }
}

/// Why an activation is blocked.
package enum ActivationBlockedReason: String, Sendable, Hashable {
    /// The failed-attempt limit was reached.
    case maxFailedAttempts = "MAX_FAILED_ATTEMPTS"
    /// The backend blocked it through the server API.
    case blockedByBackend = "BLOCKED_BY_BACKEND"
}
