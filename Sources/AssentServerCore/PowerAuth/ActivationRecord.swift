/// A PowerAuth activation as stored: who it belongs to, its state, the sealed master secret and the signature counter.
package struct ActivationRecord: Sendable, Hashable {
    /// The activation id (lower-case UUIDv4), global across tenants.
    package var id: String
    /// Its tenant.
    package var tenantID: String
    /// Its user.
    package var userID: String
    /// The name the device gave.
    package var name: String?
    /// Life-cycle state.
    package var status: ActivationStatus
    /// Why it is blocked, while it is.
    package var blockedReason: ActivationBlockedReason?
    /// The device's P-256 public key, SEC1 uncompressed (65 bytes).
    package var devicePublicKey: [UInt8]
    /// The server's per-activation P-256 public key, SEC1 uncompressed (65 bytes).
    package var serverPublicKey: [UInt8]
    /// `KEY_MASTER_SECRET`, sealed under the server master key (``SecretSealer``, bound to the activation id).
    package var sealedMasterSecret: [UInt8]
    /// The numeric counter `CTR` (informational in V3; its low byte is `CTR_BYTE`).
    package var counter: Int64
    /// The hash counter `CTR_DATA` (16 bytes): the next value the device is expected to sign with.
    package var counterData: [UInt8]
    /// Failed non-possession signatures since the last success.
    package var failedAttempts: Int
    /// The 8-digit activation fingerprint.
    package var fingerprint: String
    /// The track token's action that created it (one activation per token).
    package var enrolmentKey: String
    /// Creation time, milliseconds since the epoch.
    package var createdAt: Int64
    /// Last change, milliseconds since the epoch.
    package var updatedAt: Int64
    /// When a signature last verified.
    package var lastUsedAt: Int64?
    /// The verdict of the App Attest attestation the activation was created with (nil: none was recorded).
    package var attestation: CredentialAttestation?
    /// App Attest: the key id of the App Attest key that vouched for the activation's device key (unique).
    package var appAttestKeyID: [UInt8]?
    /// App Attest: the attested key (an uncompressed P-256 point).
    package var appAttestPublicKey: [UInt8]?
    /// App Attest: the counter of the last assertion accepted (0 after the attestation).
    package var appAttestCounter: Int64?

    /// Creates a record.
    package init(
        id: String, tenantID: String, userID: String, name: String?, status: ActivationStatus,
        blockedReason: ActivationBlockedReason? = nil, devicePublicKey: [UInt8], serverPublicKey: [UInt8],
        sealedMasterSecret: [UInt8], counter: Int64 = 0, counterData: [UInt8], failedAttempts: Int = 0, fingerprint: String,
        enrolmentKey: String, createdAt: Int64, updatedAt: Int64, lastUsedAt: Int64? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.userID = userID
        self.name = name
        self.status = status
        self.blockedReason = blockedReason
        self.devicePublicKey = devicePublicKey
        self.serverPublicKey = serverPublicKey
        self.sealedMasterSecret = sealedMasterSecret
        self.counter = counter
        self.counterData = counterData
        self.failedAttempts = failedAttempts
        self.fingerprint = fingerprint
        self.enrolmentKey = enrolmentKey
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastUsedAt = lastUsedAt
    }
}
