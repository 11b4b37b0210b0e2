public import AssentCrypto

/// A P-256 key pair held by the device, able to sign but never required to reveal its private half (so a Secure
/// Enclave or Android Keystore adapter can implement it).
public protocol SigningKey: Sendable {
    /// The public half, sent to the server at enrolment.
    var publicKey: P256.PublicKey { get }
    /// Whether every use of the key must be approved by the user (biometrics or device PIN).
    var userPresenceRequired: Bool { get }
    /// The user authentication the key requires, recorded when it was created. The SDK asks its
    /// ``UserAuthenticator`` before every use accordingly; platform key stores also enforce it in hardware.
    var accessPolicy: KeyAccessPolicy { get }
    /// Where the private key lives (``KeyProtection/software`` unless a key store says otherwise).
    var protection: KeyProtection { get }
    /// ECDSA-SHA256 over `message`, DER encoded. May prompt the user when ``userPresenceRequired`` is set.
    func signature(for message: [UInt8]) async throws -> [UInt8]
}

/// A ``SigningKey`` whose private key lives in this process's memory (loaded from ``FileKeyStore``, or held by the
/// in-memory key store of the `AssentTesting` library).
public struct SoftwareSigningKey: SigningKey {
    /// The private key.
    public let privateKey: P256.PrivateKey
    /// The user authentication the key requires (enforced by the SDK before it signs, not by this type).
    public let accessPolicy: KeyAccessPolicy

    /// Wraps a private key.
    public init(privateKey: P256.PrivateKey, userPresenceRequired: Bool = false) {
        self.privateKey = privateKey
        self.accessPolicy = KeyAccessPolicy(userPresenceRequired: userPresenceRequired)
    }

    /// Wraps a private key with its access policy.
    public init(privateKey: P256.PrivateKey, accessPolicy: KeyAccessPolicy) {
        self.privateKey = privateKey
        self.accessPolicy = accessPolicy
    }

    /// A new random key pair with `accessPolicy` (for key stores in this package that keep keys in memory).
    package static func generate(accessPolicy: KeyAccessPolicy) -> SoftwareSigningKey {
        SoftwareSigningKey(privateKey: P256.PrivateKey(), accessPolicy: accessPolicy)
    }

    /// Whether every use must be approved by the user.
    public var userPresenceRequired: Bool { accessPolicy.userPresenceRequired }

    /// The public half.
    public var publicKey: P256.PublicKey { privateKey.publicKey }

    /// ECDSA-SHA256 over `message`, DER encoded.
    public func signature(for message: [UInt8]) async throws -> [UInt8] {
        try privateKey.signature(for: message)
    }
}

extension SigningKey {
    /// iOS style only: ``userPresenceRequired`` as the whole policy (for keys that record nothing else).
    public var accessPolicy: KeyAccessPolicy { KeyAccessPolicy(userPresenceRequired: userPresenceRequired) }
}
