import Assent
import AssentCrypto
import AssentTesting
import Testing

/// The in-memory key store keeps keys and secrets by name, as every key store does.
@Suite struct InMemoryKeyStoreTests {
    @Test func `keys are created, loaded and deleted by name`() async throws {
        let store = InMemoryKeyStore()
        let none = try await store.loadKey(named: "k")
        #expect(none == nil)
        let created = try await store.createKey(named: "k", accessPolicy: KeyAccessPolicy(userPresenceRequired: true))
        let loaded = try #require(try await store.loadKey(named: "k"))
        #expect(loaded.publicKey.spkiDER == created.publicKey.spkiDER && loaded.userPresenceRequired)
        let deleted = try await store.deleteKey(named: "k")
        let deletedAgain = try await store.deleteKey(named: "k")
        #expect(deleted && !deletedAgain)
    }

    @Test func `secrets are kept apart from keys`() async throws {
        let store = InMemoryKeyStore()
        try await store.storeSecret([1, 2, 3], named: "k")
        let key = try await store.loadKey(named: "k")
        #expect(key == nil)
        #expect(try await store.loadSecret(named: "k") == [1, 2, 3])
        #expect(try await store.deleteSecret(named: "k"))
        #expect(try await store.loadSecret(named: "k") == nil)
    }

    @Test(arguments: ["", ".hidden", "a/b", String(repeating: "x", count: 129)])
    func `a name no key store accepts is refused`(name: String) async {
        await #expect(throws: KeyStoreError(.invalidName, "")) { _ = try await InMemoryKeyStore().loadKey(named: name) }
    }
}
