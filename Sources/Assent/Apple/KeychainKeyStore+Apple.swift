#if canImport(CryptoKit) && canImport(LocalAuthentication)
import LocalAuthentication

/// The system's Keychain and Secure Enclave behind ``KeychainKeyStore`` (every decision is in the shared store).
///
/// Apple-only (checked by reading; see docs/apple.md). It calls no Apple API itself: `SystemKeychainItems`,
/// `CryptoKitSecureEnclaveKeys` and `LocalAuthenticationAuthenticator` name theirs.
extension KeychainKeyStore {
    /// The default service prefix of Assent's Keychain items.
    public static let defaultService = "dev.assent"

    /// A store in the app's Keychain.
    ///
    /// - Parameters:
    ///   - service: The prefix of the items' service attribute.
    ///   - accessGroup: A Keychain access group from the app's `keychain-access-groups` entitlement, to share the
    ///     keys with an app extension (e.g. a notification service extension answering pushes); nil for the default.
    ///   - authenticator: The authenticator whose last successful prompt Secure Enclave keys reuse, so that the user
    ///     is asked once per operation; nil lets the system prompt when a key is used.
    public init(service: String = KeychainKeyStore.defaultService, accessGroup: String? = nil, authenticator: LocalAuthenticationAuthenticator? = nil) {
        let context: @Sendable () -> LAContext? = { authenticator?.evaluatedContext() }
        self.init(service: service, items: SystemKeychainItems(accessGroup: accessGroup),
                  enclave: CryptoKitSecureEnclaveKeys(authenticationContext: context))
    }
}

#endif
