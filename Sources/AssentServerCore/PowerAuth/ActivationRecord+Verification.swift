import AssentCrypto

extension ActivationRecord {
    /// PowerAuth's state rules for one verification, applied to the record read inside the store operation: only an
    /// ACTIVE activation verifies; one at its failure limit is blocked first; a full match advances the counter past
    /// it (and resets failures unless the type is `possession`); a possession-only match advances the counter past it
    /// too, counts a failure and blocks at the limit; no match changes nothing.
    ///
    /// ``ActivationService/verify(tenantID:settings:method:uriID:body:header:)`` passes it to
    /// ``ActivationStore/updateActivation(id:_:)``, which runs it inside its transaction.
    mutating func applyVerification(
        type: PowerAuthSignatureType, maxFailed: Int, now: Int64, match: PowerAuthSignatureMatch?
    ) -> (SignatureVerification.Failure?, Int?) {
        guard status == .active else { return (.notActive, nil) }
        if failedAttempts >= maxFailed {
            status = .blocked
            blockedReason = .maxFailedAttempts
            updatedAt = now
            return (.notActive, nil)
        }
        guard let match else { return (.noMatch, nil) }
        counterData = match.nextCounterData
        counter += Int64(match.distance + 1)
        updatedAt = now
        switch match.extent {
        case .allFactors:
            if type != .possession { failedAttempts = 0 }
            lastUsedAt = now
            return (nil, match.distance)
        case .possessionOnly:
            failedAttempts += 1
            if failedAttempts >= maxFailed {
                status = .blocked
                blockedReason = .maxFailedAttempts
            }
            return (.counted, nil)
        }
    }
}
