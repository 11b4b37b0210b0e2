/// The outcome of ``AssentPowerAuth/createActivation(token:password:name:)``.
public struct CreatedActivation: Sendable, Hashable, Codable {
    /// The activation's ID (a UUID).
    public var activationId: String
    /// The 8-digit fingerprint both the device and the server computed; show it for the user to compare.
    public var activationFingerprint: String
    /// `ACTIVE`, or `PENDING_COMMIT` when the backend must commit it first.
    public var activationStatus: String

    /// Creates the value.
    public init(activationId: String, activationFingerprint: String, activationStatus: String) {
        self.activationId = activationId
        self.activationFingerprint = activationFingerprint
        self.activationStatus = activationStatus
    }
}
