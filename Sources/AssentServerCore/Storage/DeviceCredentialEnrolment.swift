/// What ``CredentialStore/enrollDeviceCredential(_:enrolmentKey:reenrol:events:)`` stored.
package struct DeviceCredentialEnrolment: Sendable, Hashable {
    /// The credential as stored: the candidate, or the existing record of the same key as re-enrolment changed it.
    package var authenticator: Authenticator
    /// True when the credential was inserted; false when an existing one of the same user was re-enrolled.
    package var created: Bool

    /// What a store reports after storing `authenticator`.
    package init(authenticator: Authenticator, created: Bool) {
        self.authenticator = authenticator
        self.created = created
    }
}
