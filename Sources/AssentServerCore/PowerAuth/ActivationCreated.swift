/// What creating an activation gives the device (``ActivationService/create(tenant:claims:enrolment:)``): the new
/// activation's id and status, the server's half of the key agreement, the initial counter data, the master key's
/// signature over the activation message, the fingerprint to compare, and the tenant's PowerAuth application
/// credentials. The HTTP layer encodes the bytes for the wire.
package struct ActivationCreated: Sendable, Hashable {
    /// The activation's id.
    package var activationID: String
    /// The per-activation server public key (X9.62 uncompressed).
    package var serverPublicKey: [UInt8]
    /// The initial counter data (16 bytes).
    package var counterData: [UInt8]
    /// The tenant master key's signature over the activation message.
    package var signature: [UInt8]
    /// The activation fingerprint both sides show.
    package var fingerprint: String
    /// The tenant's PowerAuth application key.
    package var applicationKey: String
    /// The tenant's PowerAuth application secret.
    package var applicationSecret: String
    /// `ACTIVE`, or `PENDING_COMMIT` when the tenant requires the backend to commit it.
    package var status: ActivationStatus
}
