/// An activation as the server API (`/v1/activations/...`, tenant secret key) shows it.
public struct ActivationResponse: Codable, Sendable, Hashable, WireSchema {
    /// The activation id.
    public var activationId: String
    /// The user it belongs to.
    public var userId: String
    /// The name the device gave.
    public var activationName: String?
    /// `CREATED`, `PENDING_COMMIT`, `ACTIVE`, `BLOCKED` or `REMOVED`.
    public var activationStatus: String
    /// Why it is blocked (`MAX_FAILED_ATTEMPTS` or `BLOCKED_BY_BACKEND`), when it is.
    public var blockedReason: String?
    /// Failed non-possession signatures since the last success.
    public var failedAttempts: Int
    /// Failed attempts at which it is blocked.
    public var maxFailedAttempts: Int
    /// The 8-digit activation fingerprint.
    public var activationFingerprint: String
    /// When it was created (ISO-8601).
    public var createdAt: String
    /// When a signature last verified (ISO-8601).
    public var lastUsedAt: String?
    /// Assent only: the verdict of the App Attest attestation the activation was created with (absent when none).
    public var attestation: AuthenticatorAttestation?

    /// Creates a response.
    public init(activationId: String, userId: String, activationName: String?, activationStatus: String, blockedReason: String?,
                failedAttempts: Int, maxFailedAttempts: Int, activationFingerprint: String, createdAt: String, lastUsedAt: String?,
                attestation: AuthenticatorAttestation? = nil) {
        self.activationId = activationId
        self.userId = userId
        self.activationName = activationName
        self.activationStatus = activationStatus
        self.blockedReason = blockedReason
        self.failedAttempts = failedAttempts
        self.maxFailedAttempts = maxFailedAttempts
        self.activationFingerprint = activationFingerprint
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.attestation = attestation
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("A PowerAuth activation as the server API shows it.", name: "Activation", [
        .field("activationId", \.activationId, "The activation id."),
        .field("userId", \.userId, "The user it belongs to."),
        .optional("activationName", \.activationName, "The name the device gave."),
        .field("activationStatus", \.activationStatus, "CREATED, PENDING_COMMIT, ACTIVE, BLOCKED or REMOVED."),
        .optional("blockedReason", \.blockedReason, "MAX_FAILED_ATTEMPTS or BLOCKED_BY_BACKEND."),
        .field("failedAttempts", \.failedAttempts, "Failed non-possession signatures since the last success."),
        .field("maxFailedAttempts", \.maxFailedAttempts, "Failed attempts at which it is blocked."),
        .field("activationFingerprint", \.activationFingerprint, "The 8-digit activation fingerprint."),
        .field("createdAt", \.createdAt, Timestamp.wireDescription),
        .optional("lastUsedAt", \.lastUsedAt, Timestamp.wireDescription),
        .optional("attestation", \.attestation, "The device attestation's verdict, when the activation has one."),
    ])
}

/// `GET /v1/users/{userId}/activations`.
public struct ActivationListResponse: Codable, Sendable, Hashable, WireSchema {
    /// The user's activations, oldest first (removed ones included).
    public var activations: [ActivationResponse]

    /// Creates a response.
    public init(activations: [ActivationResponse]) {
        self.activations = activations
    }

    /// The field and its description.
    package static let wireFields = WireFields<Self>("A user's activations, oldest first (removed ones included).", name: "ActivationList", [
        .field("activations", \.activations, "The user's activations, oldest first (removed ones included)."),
    ])
}
