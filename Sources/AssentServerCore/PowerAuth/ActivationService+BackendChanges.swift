import AssentLog

extension ActivationService {
    /// The tenant's activation with this id.
    package func activation(tenantID: String, id: String) async throws -> ActivationRecord {
        guard let activation = try await store.activation(id: id.lowercased()), activation.tenantID == tenantID else {
            throw AssentError(.activationNotFound, "No such activation.")
        }
        return activation
    }

    /// A user's activations.
    package func activations(tenantID: String, userID: String) async throws -> [ActivationRecord] {
        try await store.activations(tenantID: tenantID, userID: userID)
    }

    /// A backend change of state.
    package enum Change: String, Sendable {
        case commit, block, unblock, remove

        /// What the audit log calls the change (a commit is not recorded).
        var auditKind: AuditKind? {
            switch self {
            case .commit: nil
            case .block: .activationBlocked
            case .unblock: .activationUnblocked
            case .remove: .activationRemoved
            }
        }
    }

    /// Applies a backend change atomically: commit (PENDING_COMMIT → ACTIVE), block (ACTIVE → BLOCKED), unblock
    /// (BLOCKED → ACTIVE, failures reset), remove (any → REMOVED). A block, unblock or removal is recorded in the
    /// audit log, with `actor`, in the change's transaction.
    package func change(tenantID: String, id: String, _ change: Change, actor: String) async throws -> ActivationRecord {
        _ = try await activation(tenantID: tenantID, id: id)
        let now = clock.nowMilliseconds()
        let audit = self.audit
        let result = try await store.updateActivation(id: id.lowercased(), audit: { _, changed in
            guard let audit, let kind = change.auditKind else { return nil }
            return audit.entry(
                tenantID: tenantID, kind, actor: actor, subject: changed.id, details: ["userId": changed.userID])
        }) { record -> ActivationRecord? in
            switch (change, record.status) {
            case (.commit, .pendingCommit):
                record.status = .active
            case (.block, .active):
                record.status = .blocked
                record.blockedReason = .blockedByBackend
            case (.unblock, .blocked):
                record.status = .active
                record.blockedReason = nil
                record.failedAttempts = 0
            case (.remove, let status) where status != .removed:
                record.status = .removed
                record.blockedReason = nil
            default:
                return nil
            }
            record.updatedAt = now
            return record
        }
        guard let outcome = result else { throw AssentError(.activationNotFound, "No such activation.") }
        guard let changed = outcome else {
            throw AssentError(.invalidState, "The activation cannot \(change.rawValue) from its current state.")
        }
        logger?.info("activation changed by the backend", [
            "tenantId": .string(tenantID), "activationId": .string(changed.id), "change": .string(change.rawValue),
            "status": .string(changed.status.rawValue)])
        return changed
    }
}
