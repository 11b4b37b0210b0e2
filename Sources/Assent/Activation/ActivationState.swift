/// An activation's state as the status blob reports it, plus the SDK's own ``deadlock``.
public enum ActivationState: String, Sendable, Hashable, Codable {
    /// Created, not yet bound to a device (1).
    case created = "CREATED"
    /// Waiting for the backend to commit it (2).
    case pendingCommit = "PENDING_COMMIT"
    /// Usable (3).
    case active = "ACTIVE"
    /// Blocked by too many failed attempts or by the backend; the backend can unblock it (4).
    case blocked = "BLOCKED"
    /// Removed; final (5).
    case removed = "REMOVED"
    /// The server is ACTIVE but this device's counter is too far ahead of it (at least the look-ahead window): no
    /// signature this device computes can verify again. Remove the activation and activate again.
    case deadlock = "DEADLOCK"

    /// The state for a status-blob code.
    init?(blobCode: UInt8) {
        switch blobCode {
        case 1: self = .created
        case 2: self = .pendingCommit
        case 3: self = .active
        case 4: self = .blocked
        case 5: self = .removed
        default: return nil
        }
    }
}
