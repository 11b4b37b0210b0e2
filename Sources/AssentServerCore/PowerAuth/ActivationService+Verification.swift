import AssentCrypto
import AssentLog
package import AssentWire

extension ActivationService {
    /// Verifies a signature made by an activation of tenant `tenantID` over (`method`, `uriID`, `body`): PowerAuth's
    /// look-ahead over `lookAhead` counter values, then — in one atomic store operation — the counter advance past the
    /// match, or, when only the possession component verified, a failed attempt and the block at the tenant's limit.
    ///
    /// A failure counts only when the possession component verified (``PowerAuthSignatureMatch/Extent/possessionOnly``):
    /// then the device itself signed this very request with a wrong PIN or biometry key, and the counter moves past
    /// the value it used, so a replay of it cannot count again. Anything else — a made-up or replayed signature, another
    /// application key, a refused `pa_version` 3.0 — changes nothing: strangers cannot spend an activation's attempts.
    ///
    /// The HMAC work runs before the store operation against the counter read just before; inside the operation
    /// it is reused when the counter is unchanged and redone when a concurrent request moved it, so the outcome is
    /// exactly that of verifying inside the transaction.
    package func verify(
        tenantID: String, settings: TenantSettings, method: String, uriID: String, body: [UInt8],
        header: PowerAuthAuthorizationHeader
    ) async throws -> SignatureVerification {
        let result = try await verifyOnce(
            tenantID: tenantID, settings: settings, method: method, uriID: uriID, body: body, header: header)
        if let metrics {
            metrics.powerAuthVerification(result.valid ? .valid : result.status == .blocked ? .blocked : .invalid)
        }
        return result
    }

    private func verifyOnce(
        tenantID: String, settings: TenantSettings, method: String, uriID: String, body: [UInt8],
        header: PowerAuthAuthorizationHeader
    ) async throws -> SignatureVerification {
        let type = header.signatureType
        let maxFailed = settings.maxFailedAttempts
        func verification(
            _ failure: SignatureVerification.Failure?, _ activation: ActivationRecord?, distance: Int? = nil
        ) -> SignatureVerification {
            let remaining = activation?.status == .active ? max(0, maxFailed - (activation?.failedAttempts ?? 0)) : 0
            return SignatureVerification(failure: failure, activationID: header.activationID, activation: activation,
                                         signatureType: type, remainingAttempts: remaining, distance: distance)
        }
        guard let snapshot = try await store.activation(id: header.activationID), snapshot.tenantID == tenantID else {
            return verification(.unknownActivation, nil)
        }
        if case .decimal = header.signatureFormat, !settings.allowLegacyPowerAuth30 {
            return verification(.legacyVersionRefused, snapshot)
        }
        let application = try await application(tenantID: tenantID)
        guard ConstantTime.equals(Base64.decode(header.applicationKey) ?? [], Base64.decode(application.applicationKey) ?? [0])
        else { return verification(.wrongApplicationKey, snapshot) }
        let keys = try keys(of: snapshot).signatureKeys
        let data = PowerAuthRequestData.normalized(
            method: method, uriID: uriID, nonce: header.nonceBytes, body: body, applicationSecret: application.applicationSecret)
        let signature = header.signature
        let format = header.signatureFormat
        let lookAhead = self.lookAhead
        let now = clock.nowMilliseconds()
        @Sendable func search(_ counterData: [UInt8]) throws -> PowerAuthSignatureMatch? {
            try PowerAuthSignature.match(
                signature, type: type, keys: keys, counterData: counterData, data: data, format: format, lookAhead: lookAhead)
        }
        let searched = snapshot.status == .active
        let precomputed = searched ? try search(snapshot.counterData) : nil
        let snapshotCounter = snapshot.counterData

        let outcome = try await store.updateActivation(id: snapshot.id, audit: { [audit] before, after in
            // The block this verification caused is recorded with it (actor `system`).
            guard let audit, before.status == .active, after.status == .blocked,
                  after.blockedReason == .maxFailedAttempts else { return nil }
            return audit.entry(
                tenantID: after.tenantID, .activationBlocked, actor: "system", subject: after.id,
                details: [
                    "userId": after.userID, "reason": ActivationBlockedReason.maxFailedAttempts.rawValue,
                    "failedAttempts": String(after.failedAttempts),
                ])
        }) { record -> (SignatureVerification.Failure?, Int?, ActivationRecord) in
            // Reuse the search when it ran against this very counter; redo it when a concurrent request moved the
            // counter in between, or when the activation was not ACTIVE at first (unblocked in between), so a valid
            // signature is never refused for want of a search.
            let stale = !searched || record.counterData != snapshotCounter
            let match = record.status == .active && stale ? try search(record.counterData) : precomputed
            let (failure, distance) = record.applyVerification(type: type, maxFailed: maxFailed, now: now, match: match)
            return (failure, distance, record)
        }
        guard let (failure, distance, after) = outcome else { return verification(.unknownActivation, nil) }
        if after.status == .blocked, after.blockedReason == .maxFailedAttempts, after.updatedAt == now,
           snapshot.status == .active {
            logger?.warning("activation blocked", [
                "tenantId": .string(after.tenantID), "activationId": .string(after.id), "userId": .string(after.userID),
                "reason": .string(ActivationBlockedReason.maxFailedAttempts.rawValue)])
        }
        return verification(failure, after, distance: distance)
    }
}
