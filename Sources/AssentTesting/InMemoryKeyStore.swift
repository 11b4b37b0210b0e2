public import Assent
package import AssentCrypto
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
/// Like ``Assent/FileKeyStore``, it keeps the id the server gave a key's credential with the key (so a new `Assent`
/// over the same store, as after an app restart, still knows it); creating, storing or deleting a key drops it.
///
/// It is not part of the `Assent` product on purpose: an app keeps its keys in the platform's key store (or
/// ``Assent/FileKeyStore``), never in memory.
public final class InMemoryKeyStore: KeyStore {
    private let keys = AssentLock<[String: SoftwareSigningKey]>([:])
    private let secrets = AssentLock<[String: [UInt8]]>([:])
    /// Credential ids by key name, with the public key (SPKI DER) they belong to.
    private let credentialIDs = AssentLock<[String: (publicKey: [UInt8], id: String)]>([:])

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
        credentialIDs.withLock { _ = $0.removeValue(forKey: name) }
        return key
    }

    /// Forgets the key under `name`.
    @discardableResult
    public func deleteKey(named name: String) async throws -> Bool {
        try Self.check(name)
        credentialIDs.withLock { _ = $0.removeValue(forKey: name) }
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
    /// The key carries no credential id: the SDK learns it as it does for a key enrolled before ids were kept.
    public func store(_ key: SoftwareSigningKey, named name: String) throws {
        try Self.check(name)
        keys.withLock { $0[name] = key }
        credentialIDs.withLock { _ = $0.removeValue(forKey: name) }
    }

    /// The credential id remembered with the key under `name`, when that key is `publicKey`.
    package func credentialID(forKeyNamed name: String, publicKey: P256.PublicKey) async throws -> String? {
        try Self.check(name)
        let spki = publicKey.spkiDER
        return credentialIDs.withLock { $0[name].flatMap { $0.publicKey == spki ? $0.id : nil } }
    }

    /// Remembers `id` (nil forgets it) with the key under `name`, when that key is `publicKey`.
    package func setCredentialID(_ id: String?, forKeyNamed name: String, publicKey: P256.PublicKey) async throws {
        try Self.check(name)
        let spki = publicKey.spkiDER
        guard keys.withLock({ $0[name]?.publicKey.spkiDER == spki }) else { return }
        credentialIDs.withLock { $0[name] = id.map { (spki, $0) } }
    }

    private static func check(_ name: String) throws {
        guard KeyName.isValid(name) else { throw KeyStoreError(.invalidName, "invalid key name '\(name)'") }
    }
}

extension InMemoryKeyStore: CredentialIDStore {}
