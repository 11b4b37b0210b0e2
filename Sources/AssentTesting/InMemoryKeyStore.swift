public import Assent
import AssentSync

/// A ``Assent/KeyStore`` that keeps keys and secrets in this process's memory only, for tests: nothing is written to
/// disk and everything is gone when the store is released. Names are checked as every key store checks them.
///
/// ```swift
/// let keyStore = InMemoryKeyStore()
/// let assent = Assent(tenantID: "acme", baseURL: "http://assent.test/v1", keyStore: keyStore,
///                     transport: FakeTransport(), clock: ManualClock().clock)
/// ```
///
/// It is not part of the `Assent` product on purpose: an app keeps its keys in the platform's key store (or
/// ``Assent/FileKeyStore``), never in memory.
public final class InMemoryKeyStore: KeyStore {
    private let keys = AssentLock<[String: SoftwareSigningKey]>([:])
    private let secrets = AssentLock<[String: [UInt8]]>([:])

    /// An empty store.
    public init() {}

    /// The key under `name`, if any.
    public func loadKey(named name: String) async throws -> (any SigningKey)? {
        try Self.check(name)
        return keys.withLock { $0[name] }
    }

    /// Generates and keeps a new key under `name`.
    public func createKey(named name: String, accessPolicy: KeyAccessPolicy) async throws -> any SigningKey {
        try Self.check(name)
        let key = SoftwareSigningKey.generate(accessPolicy: accessPolicy)
        keys.withLock { $0[name] = key }
        return key
    }

    /// Forgets the key under `name`.
    @discardableResult
    public func deleteKey(named name: String) async throws -> Bool {
        try Self.check(name)
        return keys.withLock { $0.removeValue(forKey: name) != nil }
    }

    /// The secret under `name`, if any.
    public func loadSecret(named name: String) async throws -> [UInt8]? {
        try Self.check(name)
        return secrets.withLock { $0[name] }
    }

    /// Keeps `secret` under `name`.
    public func storeSecret(_ secret: [UInt8], named name: String) async throws {
        try Self.check(name)
        secrets.withLock { $0[name] = secret }
    }

    /// Forgets the secret under `name`.
    @discardableResult
    public func deleteSecret(named name: String) async throws -> Bool {
        try Self.check(name)
        return secrets.withLock { $0.removeValue(forKey: name) != nil }
    }

    /// Stores `key` under `name`, so a test can plant a key it knows, as if the device had enrolled with it.
    ///
    /// - Throws: ``Assent/KeyStoreError`` with code `invalidName` for a name no key store accepts.
    public func store(_ key: SoftwareSigningKey, named name: String) throws {
        try Self.check(name)
        keys.withLock { $0[name] = key }
    }

    private static func check(_ name: String) throws {
        guard KeyName.isValid(name) else { throw KeyStoreError(.invalidName, "invalid key name '\(name)'") }
    }
}
