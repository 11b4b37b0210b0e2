import AssentWire

/// Something a user can verify with: a push or device credential, or a contact the backend verified itself.
public struct Authenticator: Sendable, Hashable {
    /// Identifier (`userAuthenticatorId`).
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// The user.
    public var userID: String
    /// What kind it is.
    public var verificationMethod: VerificationMethod
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// Milliseconds since the epoch.
    public var verifiedAt: Int64?
    /// Milliseconds since the epoch.
    public var lastVerifiedAt: Int64?
    /// For `EMAIL_OTP`.
    public var email: String?
    /// For `SMS`.
    public var phoneNumber: String?
    /// Whether it is the user's default.
    public var isDefault: Bool = false
    /// `IOS`, `ANDROID`, `WEB`.
    public var devicePlatform: String?
    /// The device's name.
    public var deviceName: String?
    /// SPKI DER of the device key, for device credentials.
    public var publicKey: [UInt8]?
    /// Push token, for push credentials.
    public var pushToken: String?
    /// Lease end, milliseconds since the epoch.
    public var expiresAt: Int64?
    /// Last push delivery failure, milliseconds since the epoch.
    public var erroredAt: Int64?
    /// Last push delivery failure code.
    public var errorCode: String?
    /// The device requires user presence for every use of the key (iOS style; enforced by the device).
    public var userPresenceRequired = false
    /// The key requires user authentication (Android style; enforced by the device).
    public var userAuthenticationRequired = false
    /// Seconds the key stays usable after one authentication (0: every use).
    public var authenticationTimeout: Int?
    /// `BIOMETRIC`, `DEVICE_CREDENTIAL` or `BIOMETRIC_OR_DEVICE_CREDENTIAL`.
    public var authorizationType: String?

    /// Whether the credential's lease has run out at `now` (milliseconds).
    public func isExpired(at now: Int64) -> Bool { expiresAt.map { $0 <= now } ?? false }

    /// Creates an authenticator.
    public init(id: String, tenantID: String, userID: String, verificationMethod: VerificationMethod, createdAt: Int64) {
        self.id = id
        self.tenantID = tenantID
        self.userID = userID
        self.verificationMethod = verificationMethod
        self.createdAt = createdAt
    }
}
