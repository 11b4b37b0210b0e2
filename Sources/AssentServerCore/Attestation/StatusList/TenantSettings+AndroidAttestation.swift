extension TenantSettings {
    /// Whether Android key attestations are checked for this tenant: a policy other than `off` and a package to
    /// accept. The status list is read only while some tenant does.
    package var usesAndroidAttestation: Bool {
        attestationPolicy != .off && !androidPackages.isEmpty
    }
}
