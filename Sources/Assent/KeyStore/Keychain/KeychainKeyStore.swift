import AssentCrypto

/// A ``KeyStore`` in the platform's Keychain, with signing keys in the Secure Enclave where there is one — what
/// `Assent(tenantID:baseURL:)` uses on iOS and macOS (see docs/apple.md).
///
/// Every key and secret is one generic-password item: service `<service>.key` or `<service>.secret`, account the
/// name, readable only while the device is unlocked and never migrated to another device
/// (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`), in the access group given, if any. A key's item holds a
/// ``KeychainKeyRecord``: for a Secure Enclave key its `dataRepresentation` (usable only by this device's enclave,
/// with the access control ``KeychainAccessControl`` derives from the key's policy); where the device has no Secure
/// Enclave (the simulator, some Macs), the private scalar of a software key, which ``SigningKey/protection`` then
/// reports as ``KeyProtection/software``.
///
/// The decisions live here, in shared code tested on Linux with fakes; the Apple-only adapters behind
/// ``KeychainItems`` and ``SecureEnclaveKeys`` only make the system calls.
public struct KeychainKeyStore: KeyStore {
    /// The prefix of the items' service attribute.
    public let service: String
    private let items: any KeychainItems
    private let enclave: any SecureEnclaveKeys

    /// A store over `items` and `enclave` (the Apple-only initializer passes the system's; tests pass fakes).
    package init(service: String, items: any KeychainItems, enclave: any SecureEnclaveKeys) {
        self.service = service
        self.items = items
        self.enclave = enclave
    }

    /// Whether new keys go to the Secure Enclave (otherwise they are software keys in the Keychain).
    public var isSecureEnclaveAvailable: Bool { enclave.isAvailable }

    private var keyService: String { service + ".key" }
    private var secretService: String { service + ".secret" }

    private func checked(_ name: String) throws(KeyStoreError) -> String {
        guard KeyName.isValid(name) else {
            throw KeyStoreError(.invalidName, "key names are 1 to 128 of A-Z a-z 0-9 _ - . (not starting with .)")
        }
        return name
    }

    /// The key under `name`, or nil when there is none.
    public func loadKey(named name: String) async throws -> (any SigningKey)? {
        guard let bytes = try items.read(service: keyService, account: try checked(name)) else { return nil }
        let record = try KeychainKeyRecord.decode(bytes, name: name)
        guard let material = Base64.decodeStrict(record.keyData) else {
            throw KeyStoreError(.corrupted, "the Keychain item of key \(name) has no key material")
        }
        switch record.protection {
        case .secureEnclave:
            return try enclave.restoreKey(data: material, accessPolicy: record.accessPolicy)
        case .software:
            guard let privateKey = try? P256.PrivateKey(rawRepresentation: material) else {
                throw KeyStoreError(.corrupted, "the Keychain item of key \(name) holds no P-256 key")
            }
            return SoftwareSigningKey(privateKey: privateKey, accessPolicy: record.accessPolicy)
        }
    }

    /// Generates a key under `name` — in the Secure Enclave when there is one — replacing any key stored there.
    public func createKey(named name: String, accessPolicy: KeyAccessPolicy) async throws -> any SigningKey {
        let account = try checked(name)
        let key: any SigningKey
        let record: KeychainKeyRecord
        if enclave.isAvailable {
            let access = KeychainAccessControl(policy: accessPolicy, secureEnclave: true)
            let created = try enclave.createKey(access: access, accessPolicy: accessPolicy)
            key = created.key
            record = KeychainKeyRecord(version: KeychainKeyRecord.currentVersion, protection: .secureEnclave,
                                       accessPolicy: accessPolicy, keyData: Base64.encode(created.data))
        } else {
            let privateKey = P256.PrivateKey()
            key = SoftwareSigningKey(privateKey: privateKey, accessPolicy: accessPolicy)
            record = KeychainKeyRecord(version: KeychainKeyRecord.currentVersion, protection: .software,
                                       accessPolicy: accessPolicy, keyData: Base64.encode(privateKey.rawRepresentation))
        }
        try items.write(try record.encoded(), service: keyService, account: account)
        return key
    }

    /// Deletes the key under `name`; returns whether there was one.
    @discardableResult
    public func deleteKey(named name: String) async throws -> Bool {
        try items.delete(service: keyService, account: try checked(name))
    }

    /// The secret under `name`, or nil when there is none.
    public func loadSecret(named name: String) async throws -> [UInt8]? {
        try items.read(service: secretService, account: try checked(name))
    }

    /// Stores `secret` under `name`, replacing any secret stored there.
    public func storeSecret(_ secret: [UInt8], named name: String) async throws {
        try items.write(secret, service: secretService, account: try checked(name))
    }

    /// Deletes the secret under `name`; returns whether there was one.
    @discardableResult
    public func deleteSecret(named name: String) async throws -> Bool {
        try items.delete(service: secretService, account: try checked(name))
    }
}
