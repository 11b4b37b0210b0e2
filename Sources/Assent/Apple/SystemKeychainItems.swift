#if canImport(CryptoKit)
import Foundation
import Security

/// ``KeychainItems`` on the system Keychain: generic-password items, this device only, readable while unlocked.
///
/// Apple-only (checked by reading; see docs/apple.md). Apple documentation of each API called:
/// - SecItemCopyMatching(_:_:): https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
/// - SecItemUpdate(_:_:): https://developer.apple.com/documentation/security/secitemupdate(_:_:)
/// - SecItemAdd(_:_:): https://developer.apple.com/documentation/security/secitemadd(_:_:)
/// - SecItemDelete(_:): https://developer.apple.com/documentation/security/secitemdelete(_:)
/// - kSecClassGenericPassword: https://developer.apple.com/documentation/security/ksecclassgenericpassword
/// - kSecAttrAccessibleWhenUnlockedThisDeviceOnly:
///   https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlockedthisdeviceonly
/// - kSecAttrAccessGroup: https://developer.apple.com/documentation/security/ksecattraccessgroup
/// - kSecUseDataProtectionKeychain (macOS uses the iOS-style keychain):
///   https://developer.apple.com/documentation/security/ksecusedataprotectionkeychain
struct SystemKeychainItems: KeychainItems {
    /// The Keychain access group shared with app extensions (`keychain-access-groups` entitlement), or nil for the
    /// app's default group.
    let accessGroup: String?

    private func query(service: String, account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup {
            query[kSecAttrAccessGroup as String] = accessGroup
        }
        return query
    }

    func read(service: String, account: String) throws -> [UInt8]? {
        var query = query(service: service, account: account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw KeyStoreError(.ioFailure, "SecItemCopyMatching failed with OSStatus \(status)")
        }
        return Array(data)
    }

    /// Updates the item in place when it exists (so a failure never leaves the name empty), adds it otherwise.
    func write(_ data: [UInt8], service: String, account: String) throws {
        let attributes: [String: Any] = [
            kSecValueData as String: Data(data),
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]
        let base = query(service: service, account: account)
        var status = SecItemUpdate(base as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(base.merging(attributes) { _, new in new } as CFDictionary, nil)
        }
        guard status == errSecSuccess else {
            throw KeyStoreError(.ioFailure, "writing the Keychain item failed with OSStatus \(status)")
        }
    }

    func delete(service: String, account: String) throws -> Bool {
        let status = SecItemDelete(query(service: service, account: account) as CFDictionary)
        if status == errSecItemNotFound { return false }
        guard status == errSecSuccess else {
            throw KeyStoreError(.ioFailure, "SecItemDelete failed with OSStatus \(status)")
        }
        return true
    }
}

#endif
