import Assent
import AssentCrypto
import AssentTesting
import Foundation
import Testing

/// The Apple key store's decisions, run on Linux over a fake Keychain and a fake Secure Enclave: where a key goes,
/// which access control it gets, how it is reported, and that failures never look like "no key".
@Suite struct KeychainKeyStoreTests {
    private let name = AssentPush.keyName
    private let message = Array("challenge".utf8)

    @Test func `with a Secure Enclave a new key is made there, reported as such, and reloads as the same key`() async throws {
        let items = FakeKeychainItems()
        let enclave = FakeSecureEnclave(isAvailable: true)
        let store = KeychainKeyStore(service: "test", items: items, enclave: enclave)
        let policy = KeyAccessPolicy(userPresenceRequired: true)
        let created = try await store.createKey(named: name, accessPolicy: policy)
        #expect(store.isSecureEnclaveAvailable)
        #expect(created.protection == .secureEnclave)
        #expect(enclave.createdAccessControls == [KeychainAccessControl(policy: policy, secureEnclave: true)])

        let loaded = try #require(try await store.loadKey(named: name))
        #expect(loaded.protection == .secureEnclave)
        #expect(loaded.publicKey == created.publicKey)
        #expect(loaded.accessPolicy == policy)
        #expect(created.publicKey.isValidSignature(try await loaded.signature(for: message), for: message))
    }

    @Test func `without a Secure Enclave the key is a Keychain-held software key, reported as software`() async throws {
        let items = FakeKeychainItems()
        let enclave = FakeSecureEnclave(isAvailable: false)
        let store = KeychainKeyStore(service: "test", items: items, enclave: enclave)
        let policy = KeyAccessPolicy(userAuthenticationRequired: true, timeout: 30, authorizationType: .biometric)
        let created = try await store.createKey(named: name, accessPolicy: policy)
        #expect(!store.isSecureEnclaveAvailable)
        #expect(created.protection == .software)
        #expect(enclave.createdAccessControls.isEmpty)

        let loaded = try #require(try await store.loadKey(named: name) as? SoftwareSigningKey)
        #expect(loaded.protection == .software)
        #expect(loaded.publicKey == created.publicKey)
        #expect(loaded.accessPolicy == policy)
        #expect(created.publicKey.isValidSignature(try await loaded.signature(for: message), for: message))
    }

    @Test(arguments: [true, false])
    func `the SDK reports where each credential's key lives`(enclaveAvailable: Bool) async throws {
        let store = KeychainKeyStore(service: "test", items: FakeKeychainItems(), enclave: FakeSecureEnclave(isAvailable: enclaveAvailable))
        let assent = Assent(tenantID: "t", baseURL: "https://assent.test/v1", keyStore: store, transport: FakeTransport(),
                            clock: .fixed(unixSeconds: 1_700_000_000))
        #expect(await assent.push.keyProtection() == nil)
        _ = try await store.createKey(named: AssentPush.keyName, accessPolicy: KeyAccessPolicy(userPresenceRequired: true))
        #expect(await assent.push.keyProtection() == (enclaveAvailable ? .secureEnclave : .software))
        #expect(await assent.qr.keyProtection() == nil)
    }

    @Test func `creating again replaces the key, and deleting answers whether there was one`() async throws {
        let store = KeychainKeyStore(service: "test", items: FakeKeychainItems(), enclave: FakeSecureEnclave(isAvailable: true))
        let first = try await store.createKey(named: name, accessPolicy: .none)
        let second = try await store.createKey(named: name, accessPolicy: .none)
        #expect(first.publicKey != second.publicKey)
        #expect(try await store.loadKey(named: name)?.publicKey == second.publicKey)
        #expect(try await store.deleteKey(named: name))
        #expect(try await store.loadKey(named: name) == nil)
        #expect(try await store.deleteKey(named: name) == false)
    }

    @Test func `secrets round-trip in their own items, apart from keys of the same name`() async throws {
        let items = FakeKeychainItems()
        let store = KeychainKeyStore(service: "test", items: items, enclave: FakeSecureEnclave(isAvailable: false))
        _ = try await store.createKey(named: "shared", accessPolicy: .none)
        try await store.storeSecret([1, 2, 3], named: "shared")
        #expect(items.count == 2)
        #expect(try await store.loadSecret(named: "shared") == [1, 2, 3])
        #expect(try await store.loadKey(named: "shared") != nil)
        try await store.storeSecret([4], named: "shared")
        #expect(try await store.loadSecret(named: "shared") == [4])
        #expect(try await store.deleteSecret(named: "shared"))
        #expect(try await store.loadSecret(named: "shared") == nil)
        #expect(try await store.loadKey(named: "shared") != nil)
    }

    @Test func `an invalid name is refused before the Keychain is touched`() async throws {
        let items = FakeKeychainItems()
        let store = KeychainKeyStore(service: "test", items: items, enclave: FakeSecureEnclave(isAvailable: true))
        await #expect(throws: KeyStoreError(.invalidName, "")) { try await store.createKey(named: "../x", accessPolicy: .none) }
        await #expect(throws: KeyStoreError(.invalidName, "")) { try await store.storeSecret([1], named: "") }
        #expect(items.count == 0)
    }

    @Test func `an item that is not a key record is reported as damaged, never as no key`() async throws {
        let items = FakeKeychainItems()
        let store = KeychainKeyStore(service: "test", items: items, enclave: FakeSecureEnclave(isAvailable: true))
        try items.write(Array("not json".utf8), service: "test.key", account: name)
        await #expect(throws: KeyStoreError(.corrupted, "")) { try await store.loadKey(named: name) }
    }

    /// The access control each policy gets in the Secure Enclave (and none for software keys).
    @Test func `access control follows the key's policy`() {
        typealias Flag = KeychainAccessControl.Flag
        let cases: [(KeyAccessPolicy, [Flag])] = [
            (.none, [.privateKeyUsage]),
            (KeyAccessPolicy(userPresenceRequired: true), [.privateKeyUsage, .userPresence]),
            (KeyAccessPolicy(userAuthenticationRequired: true, authorizationType: .biometric), [.privateKeyUsage, .biometryCurrentSet]),
            (KeyAccessPolicy(userAuthenticationRequired: true, authorizationType: .deviceCredential), [.privateKeyUsage, .devicePasscode]),
            (KeyAccessPolicy(userAuthenticationRequired: true), [.privateKeyUsage, .biometryCurrentSet, .or, .devicePasscode]),
            // A validity window has no Keychain equivalent: the SDK's gate enforces it.
            (KeyAccessPolicy(userAuthenticationRequired: true, timeout: 30, authorizationType: .biometric), [.privateKeyUsage]),
            // Both styles: the Android methods, every use.
            (KeyAccessPolicy(userPresenceRequired: true, userAuthenticationRequired: true, timeout: 30, authorizationType: .biometric),
             [.privateKeyUsage, .biometryCurrentSet]),
        ]
        for (policy, flags) in cases {
            let access = KeychainAccessControl(policy: policy, secureEnclave: true)
            #expect(access.flags == flags, "\(policy)")
            // The hardware asks the user exactly when a user flag is on the key.
            #expect(access.requiresUserAuthentication == (flags.count > 1), "\(policy)")
            #expect(KeychainAccessControl(policy: policy, secureEnclave: false).flags.isEmpty)
        }
    }
}
