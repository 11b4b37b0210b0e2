import AssentWire

extension Authenticator {
    /// Re-enrolment: the device enrolled a key that is already enrolled for the same user (reinstalling the app, or a
    /// retried enrolment). The stored credential stays — its id, creation and verification time, last verification,
    /// contact and default flag — and takes from `candidate` what describes the device now: its name and platform, its
    /// push token (the stored one stays when the device sent none), the lease end and the key's use policy. The
    /// verification time stays because the enrolment answers it (`verifiedAt`, the SDK's `createdAt`): a new one there
    /// contradicted the server API's `createdAt` for the same credential (issue 22 §3.9).
    /// A delivery error recorded against the old push token is cleared. The signature scheme never goes down: a
    /// credential enrolled `bound` stays bound whatever a later enrolment of the same key asks for (a box on the
    /// path of a re-enrolment cannot strip it). Nor does its attestation: a re-enrolment without one keeps the
    /// recorded verdict (the key is the same), one with a new one replaces it.
    ///
    /// Passed to ``CredentialStore/enrollDeviceCredential(_:enrolmentKey:reenrol:events:)``, which runs it on the
    /// stored record inside its transaction.
    package mutating func reenrol(as candidate: Authenticator) {
        deviceName = candidate.deviceName
        devicePlatform = candidate.devicePlatform
        pushToken = candidate.pushToken ?? pushToken
        expiresAt = candidate.expiresAt
        userPresenceRequired = candidate.userPresenceRequired
        userAuthenticationRequired = candidate.userAuthenticationRequired
        authenticationTimeout = candidate.authenticationTimeout
        authorizationType = candidate.authorizationType
        if candidate.signatureScheme == .bound { signatureScheme = .bound }
        erroredAt = nil
        errorCode = nil
        // A new attestation replaces the recorded one; an enrolment without one keeps it (the key is the same).
        if candidate.attestation != nil {
            attestation = candidate.attestation
            appAttestKeyID = candidate.appAttestKeyID
            appAttestPublicKey = candidate.appAttestPublicKey
            appAttestCounter = candidate.appAttestCounter
        }
    }
}
