/// Whether, and how, the user must authenticate before a key may be used — recorded with the key when it is created.
///
/// Two styles, as the push and QR documents describe them:
/// - iOS: ``userPresenceRequired`` — every use passes biometrics or the device credential.
/// - Android: ``userAuthenticationRequired`` with ``timeout`` (seconds the key stays usable after one
///   authentication; 0 = every use) and ``authorizationType`` (biometric, device credential, or either).
///
/// "One use" is one SDK operation: answering a challenge signs the challenge ID and the bound decision after a
/// single prompt.
public struct KeyAccessPolicy: Sendable, Hashable, Codable {
    /// iOS style: every use needs the user's biometrics or device credential.
    public var userPresenceRequired: Bool
    /// Android style: use needs a user authentication at most ``timeout`` seconds old.
    public var userAuthenticationRequired: Bool
    /// Seconds the key stays usable after one authentication; 0 means every use authenticates.
    public var timeout: Int
    /// Which methods may authenticate.
    public var authorizationType: AuthorizationType

    /// A policy.
    public init(
        userPresenceRequired: Bool = false, userAuthenticationRequired: Bool = false, timeout: Int = 0,
        authorizationType: AuthorizationType = .biometricOrDeviceCredential
    ) {
        self.userPresenceRequired = userPresenceRequired
        self.userAuthenticationRequired = userAuthenticationRequired
        self.timeout = max(0, timeout)
        self.authorizationType = authorizationType
    }

    /// No user authentication.
    public static let none = KeyAccessPolicy()

    /// Whether any use of the key needs the user.
    public var requiresUserAuthentication: Bool { userPresenceRequired || userAuthenticationRequired }

    /// How long (milliseconds) one authentication keeps the key usable: 0 under ``userPresenceRequired``.
    var validityMilliseconds: Int64 {
        userPresenceRequired ? 0 : Int64(timeout) * 1000
    }

    /// Methods allowed: either under ``userPresenceRequired`` (biometrics or passcode), else ``authorizationType``.
    var allowedMethods: AuthorizationType {
        userPresenceRequired && !userAuthenticationRequired ? .biometricOrDeviceCredential : authorizationType
    }
}
