package import AssentWire

/// Something a user can verify with: a push or device credential, or a contact the backend verified itself.
package struct Authenticator: Sendable, Hashable {
    /// Identifier (`userAuthenticatorId`).
    package var id: String
    /// The tenant.
    package var tenantID: String
    /// The user.
    package var userID: String
    /// What kind it is.
    package var verificationMethod: VerificationMethod
    /// Milliseconds since the epoch.
    package var createdAt: Int64
    /// Milliseconds since the epoch.
    package var verifiedAt: Int64?
    /// Milliseconds since the epoch.
    package var lastVerifiedAt: Int64?
    /// For `EMAIL_OTP`.
    package var email: String?
    /// For `SMS`.
    package var phoneNumber: String?
    /// Whether it is the user's default.
    package var isDefault: Bool = false
    /// `IOS`, `ANDROID`, `WEB`.
    package var devicePlatform: String?
    /// The device's name.
    package var deviceName: String?
    /// SPKI DER of the device key, for device credentials.
    package var publicKey: [UInt8]?
    /// Push token, for push credentials.
    package var pushToken: String?
    /// Lease end, milliseconds since the epoch.
    package var expiresAt: Int64?
    /// Last push delivery failure, milliseconds since the epoch.
    package var erroredAt: Int64?
    /// Last push delivery failure code.
    package var errorCode: String?
    /// The device requires user presence for every use of the key (iOS style; enforced by the device).
    package var userPresenceRequired = false
    /// The key requires user authentication (Android style; enforced by the device).
    package var userAuthenticationRequired = false
    /// Seconds the key stays usable after one authentication (0: every use).
    package var authenticationTimeout: Int?
    /// `BIOMETRIC`, `DEVICE_CREDENTIAL` or `BIOMETRIC_OR_DEVICE_CREDENTIAL`.
    package var authorizationType: String?
    /// The messages a device credential signs, recorded at enrolment: Authsignal's (`compatible`, the official SDKs)
    /// or Assent's bound ones only.
    package var signatureScheme: SignatureScheme = .compatible
    /// The verdict of the device attestation the key was enrolled with (nil: none was recorded).
    package var attestation: CredentialAttestation?
    /// App Attest: the key id of the App Attest key that vouched for this credential (unique among credentials).
    package var appAttestKeyID: [UInt8]?
    /// App Attest: the attested key (an uncompressed P-256 point), for assertions.
    package var appAttestPublicKey: [UInt8]?
    /// App Attest: the counter of the last assertion accepted (0 after the attestation).
    package var appAttestCounter: Int64?

    /// Whether the credential's lease has run out at `now` (milliseconds).
    package func isExpired(at now: Int64) -> Bool { expiresAt.map { $0 <= now } ?? false }

    /// Creates an authenticator.
    package init(id: String, tenantID: String, userID: String, verificationMethod: VerificationMethod, createdAt: Int64) {
        self.id = id
        self.tenantID = tenantID
        self.userID = userID
        self.verificationMethod = verificationMethod
        self.createdAt = createdAt
    }
}
