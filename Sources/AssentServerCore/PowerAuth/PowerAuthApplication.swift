/// A tenant's PowerAuth application: the key and secret every signature names, and the master key pair whose public
/// half SDKs pin to check activations.
package struct PowerAuthApplication: Sendable, Hashable {
    /// The tenant.
    package var tenantID: String
    /// Base64 of 16 random bytes (`pa_application_key`).
    package var applicationKey: String
    /// Base64 of 16 random bytes, appended as text to the signed data.
    package var applicationSecret: String
    /// The master public key, SEC1 uncompressed (65 bytes).
    package var masterPublicKey: [UInt8]
    /// The master private key (32-byte scalar), sealed under the server master key (``SecretSealer``).
    package var sealedMasterPrivateKey: [UInt8]
    /// Creation time, milliseconds since the epoch.
    package var createdAt: Int64

    /// Creates a record.
    package init(tenantID: String, applicationKey: String, applicationSecret: String, masterPublicKey: [UInt8],
                sealedMasterPrivateKey: [UInt8], createdAt: Int64) {
        self.tenantID = tenantID
        self.applicationKey = applicationKey
        self.applicationSecret = applicationSecret
        self.masterPublicKey = masterPublicKey
        self.sealedMasterPrivateKey = sealedMasterPrivateKey
        self.createdAt = createdAt
    }
}
