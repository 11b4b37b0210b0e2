/// The Keychain as ``KeychainKeyStore`` uses it: generic-password items (`kSecClassGenericPassword`) addressed by
/// service and account, holding bytes. The Apple-only `SystemKeychainItems` implements it with `SecItem*` calls
/// (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`, an optional access group); tests use an in-memory fake.
package protocol KeychainItems: Sendable {
    /// The bytes of the item, or nil when there is none.
    func read(service: String, account: String) throws -> [UInt8]?
    /// Stores `data` as the item, replacing any item there.
    func write(_ data: [UInt8], service: String, account: String) throws
    /// Deletes the item; returns whether there was one.
    func delete(service: String, account: String) throws -> Bool
}
