import AssentCrypto

/// A P-256 key pair held by the device, able to sign but never required to reveal its private half (so a Secure
/// Enclave or Android Keystore adapter can implement it).
public protocol SigningKey: Sendable {
    /// The public half, sent to the server at enrolment.
    var publicKey: P256.PublicKey { get }
    /// Whether every use of the key must be approved by the user (biometrics or device PIN). Platform key stores
    /// enforce this; ``SoftwareSigningKey`` only records it.
    var userPresenceRequired: Bool { get }
    /// ECDSA-SHA256 over `message`, DER encoded. May prompt the user when ``userPresenceRequired`` is set.
    func signature(for message: [UInt8]) async throws -> [UInt8]
}

/// A ``SigningKey`` whose private key lives in this process's memory (loaded from ``FileKeyStore`` or held by
/// ``InMemoryKeyStore``).
public struct SoftwareSigningKey: SigningKey {
    /// The private key.
    public let privateKey: P256.PrivateKey
    /// Recorded with the key; not enforced in software.
    public let userPresenceRequired: Bool

    /// Wraps a private key.
    public init(privateKey: P256.PrivateKey, userPresenceRequired: Bool = false) {
        self.privateKey = privateKey
        self.userPresenceRequired = userPresenceRequired
    }

    /// The public half.
    public var publicKey: P256.PublicKey { privateKey.publicKey }

    /// ECDSA-SHA256 over `message`, DER encoded.
    public func signature(for message: [UInt8]) async throws -> [UInt8] {
        try privateKey.signature(for: message)
    }
}
