/// `POST /v1/client/activations` (`Authorization: Bearer <track token>`, the same token rules as enrolling a push
/// credential: a token with the `add:authenticators` scope, or any track token while the user has no authenticator):
/// create a PowerAuth activation for the token's user.
public struct CreateActivationRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// Base64 (standard, padded) of the device's P-256 ECDH public key, SEC1 uncompressed (65 bytes, `04 || X || Y`).
    public var devicePublicKey: String
    /// A name for the activation ("Alice's phone").
    public var activationName: String?
    /// Assent only: an App Attest attestation (``AttestationStatement``, `apple-appattest` only) whose binding hash
    /// uses ``devicePublicKey`` as sent, which the tenant's attestation policy may ask for.
    public var attestation: AttestationStatement?

    /// Creates a request.
    public init(devicePublicKey: String, activationName: String? = nil, attestation: AttestationStatement? = nil) {
        self.devicePublicKey = devicePublicKey
        self.activationName = activationName
        self.attestation = attestation
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "Create a PowerAuth activation for the token's user.", blank: { Self(devicePublicKey: "") }, [
            .requiredString("devicePublicKey", \.devicePublicKey, maxLength: 256,
                            "Base64 of the device's P-256 public key, SEC1 uncompressed."),
            .string("activationName", \.activationName, maxLength: 255, "A name for the activation."),
            .nested("attestation", \.attestation, maxBytes: 64 * 1024,
                    "An App Attest attestation (apple-appattest only) bound to a challenge and to devicePublicKey."),
        ])
}

/// The answer to `POST /v1/client/activations`.
///
/// The device checks ``activationSignature`` with the tenant's pinned master public key over
/// ``PowerAuthActivationMessage/signedMessage(activationId:devicePublicKey:serverPublicKey:ctrData:applicationKey:applicationSecret:)``
/// before trusting anything else here, then computes
/// `KEY_MASTER_SECRET = convert32Bto16B(ECDH(devicePrivate, serverPublicKey))` and the factor keys.
public struct CreateActivationResponse: Codable, Sendable, Hashable, WireSchema {
    /// The activation's id (a lower-case UUIDv4), `pa_activation_id` of every signature.
    public var activationId: String
    /// Base64 of the server's per-activation P-256 public key, SEC1 uncompressed (65 bytes).
    public var serverPublicKey: String
    /// Base64 of the initial 16-byte hash counter `CTR_DATA`.
    public var ctrData: String
    /// Base64 of the DER ECDSA-P256-SHA256 signature by the tenant's master key over ``PowerAuthActivationMessage``.
    public var activationSignature: String
    /// The 8-digit V3 activation fingerprint, for the user to compare with what the backend shows.
    public var activationFingerprint: String
    /// Base64 of the tenant's 16-byte PowerAuth application key, `pa_application_key` of every signature.
    public var applicationKey: String
    /// Base64 text of the tenant's 16-byte application secret, appended to the signed data (it identifies the app,
    /// like the secret compiled into a PowerAuth app; it is not a credential).
    public var applicationSecret: String
    /// `ACTIVE`, or `PENDING_COMMIT` when the tenant requires the backend to commit activations.
    public var activationStatus: String

    /// Creates a response.
    public init(activationId: String, serverPublicKey: String, ctrData: String, activationSignature: String,
                activationFingerprint: String, applicationKey: String, applicationSecret: String, activationStatus: String) {
        self.activationId = activationId
        self.serverPublicKey = serverPublicKey
        self.ctrData = ctrData
        self.activationSignature = activationSignature
        self.activationFingerprint = activationFingerprint
        self.applicationKey = applicationKey
        self.applicationSecret = applicationSecret
        self.activationStatus = activationStatus
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The new activation (see docs/powerauth.md).", [
        .field("activationId", \.activationId, "The activation's id (a lower-case UUIDv4)."),
        .field("serverPublicKey", \.serverPublicKey, "Base64 of the server's per-activation P-256 public key."),
        .field("ctrData", \.ctrData, "Base64 of the initial 16-byte hash counter."),
        .field("activationSignature", \.activationSignature, "Base64 of the master key's DER ECDSA signature."),
        .field("activationFingerprint", \.activationFingerprint, "The 8-digit V3 activation fingerprint."),
        .field("applicationKey", \.applicationKey, "Base64 of the tenant's 16-byte PowerAuth application key."),
        .field("applicationSecret", \.applicationSecret, "Base64 text of the tenant's 16-byte application secret."),
        .field("activationStatus", \.activationStatus, "ACTIVE, or PENDING_COMMIT."),
    ])
}

/// `POST /v1/client/activations/status` (no authentication; the answer is encrypted under `KEY_TRANSPORT`).
public struct ActivationStatusRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// The activation.
    public var activationId: String
    /// Base64 of 16 random bytes chosen by the device for this request.
    public var challenge: String

    /// Creates a request.
    public init(activationId: String, challenge: String) {
        self.activationId = activationId
        self.challenge = challenge
    }

    /// The fields, their limits and descriptions.
    package static let wireFields = WireFields<Self>(
        "The device asks its activation's status.", blank: { Self(activationId: "", challenge: "") }, [
            .requiredString("activationId", \.activationId, maxLength: 64, "The activation."),
            .requiredString("challenge", \.challenge, maxLength: 64, "Base64 of 16 random bytes."),
        ])
}

/// The answer to `POST /v1/client/activations/status`: the 32-byte status blob of ``PowerAuthActivationStatus``,
/// encrypted with `AES-128-CBC-NoPad(KEY_TRANSPORT, IV = KDF_INTERNAL(KDF(KEY_TRANSPORT, 3000), challenge || nonce))`.
/// An unknown activation id answers `404 activation_not_found`; the device then treats the activation as removed.
public struct ActivationStatusResponse: Codable, Sendable, Hashable, WireSchema {
    /// Base64 of the 32 encrypted bytes.
    public var encryptedStatusBlob: String
    /// Base64 of the server's 16 random bytes.
    public var nonce: String

    /// Creates a response.
    public init(encryptedStatusBlob: String, nonce: String) {
        self.encryptedStatusBlob = encryptedStatusBlob
        self.nonce = nonce
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The 32-byte status blob, encrypted under KEY_TRANSPORT.", [
        .field("encryptedStatusBlob", \.encryptedStatusBlob, "Base64 of the 32 encrypted bytes."),
        .field("nonce", \.nonce, "Base64 of the server's 16 random bytes."),
    ])
}

/// `POST /v1/client/vault/unlock`, signed `possession_knowledge` (or stronger) with uriId ``PowerAuthURI/vaultUnlock``
/// over the raw body: releases the vault key so the device can decrypt its private key and re-derive the biometry key.
public struct VaultUnlockRequest: Codable, Sendable, Hashable, WireDecodable, WireSchema {
    /// Why: `ADD_BIOMETRY`, `FETCH_ENCRYPTION_KEY`, `SIGN_WITH_DEVICE_PRIVATE_KEY` or `RECOVERY_CODE`.
    public var reason: String

    /// Creates a request.
    public init(reason: String = "ADD_BIOMETRY") {
        self.reason = reason
    }

    /// The field, its spellings and description.
    package static let wireFields = WireFields<Self>("Why the vault is unlocked (absent: ADD_BIOMETRY).", blank: { Self() }, [
        .choice("reason", \.reason, maxLength: 64,
                allowed: ["ADD_BIOMETRY", "FETCH_ENCRYPTION_KEY", "SIGN_WITH_DEVICE_PRIVATE_KEY", "RECOVERY_CODE"],
                absent: "ADD_BIOMETRY",
                refusal: "reason must be ADD_BIOMETRY, FETCH_ENCRYPTION_KEY, SIGN_WITH_DEVICE_PRIVATE_KEY or RECOVERY_CODE.",
                "Why the vault is unlocked."),
    ])
}

/// The answer to a vault unlock.
public struct VaultUnlockResponse: Codable, Sendable, Hashable, WireSchema {
    /// Base64 of `AES-128-CBC-PKCS7(KEY_TRANSPORT, IV = 0^16, KEY_ENCRYPTION_VAULT)` (32 bytes).
    public var encryptedVaultEncryptionKey: String

    /// Creates a response.
    public init(encryptedVaultEncryptionKey: String) {
        self.encryptedVaultEncryptionKey = encryptedVaultEncryptionKey
    }

    /// The field and its description.
    package static let wireFields = WireFields<Self>("The vault key, encrypted under KEY_TRANSPORT.", [
        .field("encryptedVaultEncryptionKey", \.encryptedVaultEncryptionKey, "Base64 of the encrypted vault key (32 bytes)."),
    ])
}
