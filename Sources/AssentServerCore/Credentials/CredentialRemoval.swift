/// What a signed removal of a device credential did (``CredentialStore/removeDeviceCredential(tenantID:userID:id:spending:keepUntil:events:)``).
package enum CredentialRemoval: Sendable, Equatable {
    /// The credential is gone and the signature spent.
    case removed
    /// The credential was not there; nothing changed.
    case notFound
    /// The signature had already removed a credential; nothing changed.
    case signatureSpent
}
