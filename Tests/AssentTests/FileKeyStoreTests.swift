import Assent
import AssentCrypto
import AssentTesting
import Foundation
import Testing
import AssentTestSupport

/// The Linux key store: keys sealed at rest, owner-only files, atomic writes, refusals that never lose a key.
@Suite struct FileKeyStoreTests {
    /// Few PBKDF2 rounds keep the tests fast; the count is stored per key, so it is exercised all the same.
    private let rounds = 1_000
    private let name = AssentPush.keyName

    private func privateScalar(_ key: any SigningKey) throws -> [UInt8] {
        try #require(key as? SoftwareSigningKey).privateKey.rawRepresentation
    }

    @Test(arguments: [nil, "correct horse battery staple"] as [String?])
    func `a key round-trips through the files and still signs`(passphrase: String?) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        let created = try await FileKeyStore(directory: directory, passphrase: passphrase, iterations: rounds)
            .createKey(named: name, userPresenceRequired: true)

        let reopened = FileKeyStore(directory: directory, passphrase: passphrase)
        let loaded = try #require(try await reopened.loadKey(named: name))
        #expect(loaded.publicKey == created.publicKey)
        #expect(loaded.userPresenceRequired)
        #expect(try privateScalar(loaded) == privateScalar(created))
        let signature = try await loaded.signature(for: Array("challenge".utf8))
        #expect(created.publicKey.isValidSignature(signature, for: Array("challenge".utf8)))

        #expect(try await reopened.loadKey(named: "assent_signing_key_qr_code") == nil)
        #expect(try await reopened.deleteKey(named: name))
        #expect(try await reopened.loadKey(named: name) == nil)
        #expect(try await reopened.deleteKey(named: name) == false)
    }

    @Test func `a store whose directory does not exist yet has no keys and creates nothing on reads`() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let store = FileKeyStore(directory: temporary.file("never/made"))
        #expect(try await store.loadKey(named: name) == nil)
        #expect(try await store.deleteKey(named: name) == false)
        #expect(!FileManager.default.fileExists(atPath: temporary.file("never")))
    }

    @Test(arguments: [nil, "pass"] as [String?])
    func `the directory is 0700 and every file 0600, with no temporary files left`(passphrase: String?) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("home/keys")
        let store = FileKeyStore(directory: directory, passphrase: passphrase, iterations: rounds)
        _ = try await store.createKey(named: name, userPresenceRequired: false)
        _ = try await store.createKey(named: "assent_signing_key_qr_code", userPresenceRequired: false)
        _ = try await store.createKey(named: name, userPresenceRequired: false)  // replaces

        #expect(try fileMode(directory) == 0o700)
        #expect(try fileMode(temporary.file("home")) == 0o700)  // missing parents are created owner-only too
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let expected = ["assent_signing_key_push.key", "assent_signing_key_qr_code.key"]
        #expect(files == (passphrase == nil ? expected + ["keystore.secret"] : expected))
        for file in files {
            #expect(try fileMode((directory as NSString).appendingPathComponent(file)) == 0o600, "\(file)")
        }
    }

    @Test(arguments: [nil, "pass"] as [String?])
    func `the private key never appears in plaintext in the files`(passphrase: String?) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        let key = try await FileKeyStore(directory: directory, passphrase: passphrase, iterations: rounds)
            .createKey(named: name, userPresenceRequired: false)
        let scalar = try privateScalar(key)
        let hex = scalar.map { String(format: "%02x", $0) }.joined()
        let keyFile = try Data(contentsOf: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("\(name).key")))
        let text = String(decoding: keyFile, as: UTF8.self)
        for needle in [Base64.encode(scalar), Base64.encodeURL(scalar), hex, hex.uppercased()] {
            #expect(!text.contains(needle))
        }
        #expect(!Array(keyFile).contains(subsequence: scalar))
        // The public key is there (it is public), and the file says how it is sealed.
        #expect(text.contains(Base64.encode(key.publicKey.spkiDER)))
        #expect(text.contains(passphrase == nil ? "\"keyfile\"" : "\"PBKDF2-HMAC-SHA256\""))
        if passphrase == nil {
            let secret = try Data(contentsOf: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("keystore.secret")))
            #expect(secret.count == 32 && !Array(secret).contains(subsequence: scalar))
        }
    }

    @Test func `a wrong passphrase is refused and the key is left as it was`() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        let created = try await FileKeyStore(directory: directory, passphrase: "right", iterations: rounds)
            .createKey(named: name, userPresenceRequired: false)
        let path = (directory as NSString).appendingPathComponent("\(name).key")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        await #expect(throws: KeyStoreError(.wrongPassphrase, "")) {
            _ = try await FileKeyStore(directory: directory, passphrase: "wrong").loadKey(named: name)
        }
        await #expect(throws: KeyStoreError(.passphraseRequired, "")) {
            _ = try await FileKeyStore(directory: directory).loadKey(named: name)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try await FileKeyStore(directory: directory, passphrase: "right").loadKey(named: name)?.publicKey
            == created.publicKey)
    }

    @Test func `a key stored without a passphrase is not opened with one`() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        _ = try await FileKeyStore(directory: directory).createKey(named: name, userPresenceRequired: false)
        await #expect(throws: KeyStoreError(.protectionMismatch, "")) {
            _ = try await FileKeyStore(directory: directory, passphrase: "p").loadKey(named: name)
        }
    }

    @Test func `passphrase refusals name the key and what to do, not the absolute path`() async throws {
        // Issue 22 §3.6: the CLI printed "KeyStoreError.protectionMismatch: the key in /home/…/push.key …".
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let plain = temporary.file("plain"), sealed = temporary.file("sealed")
        _ = try await FileKeyStore(directory: plain).createKey(named: name, userPresenceRequired: false)
        _ = try await FileKeyStore(directory: sealed, passphrase: "right", iterations: rounds)
            .createKey(named: name, userPresenceRequired: false)
        for (store, advice) in [
            (FileKeyStore(directory: plain, passphrase: "p"), "open the store without a passphrase"),
            (FileKeyStore(directory: sealed, passphrase: "wrong"), "with the passphrase it was stored with"),
            (FileKeyStore(directory: sealed), "open the store with that passphrase"),
        ] {
            do {
                _ = try await store.loadKey(named: name)
                Issue.record("opened \(store.directory)")
            } catch let error as KeyStoreError {
                #expect(error.reason.contains(name) && error.reason.contains(advice), "\(error.reason)")
                #expect(!error.reason.contains(temporary.path), "\(error.reason)")
            }
        }
        // What an app (and the CLI) reads from the SDK: the reason, without the Swift type and code.
        let assent = Assent(tenantID: "t", baseURL: "http://assent.test/v1",
                            keyStore: FileKeyStore(directory: plain, passphrase: "p"), transport: FakeTransport(),
                            clock: .system)
        let response = await assent.push.getChallenge()
        #expect(response.errorCode == "key_store_error")
        #expect(response.error?.contains("open the store without a passphrase") == true, "\(response.error ?? "")")
        #expect(response.error?.contains("KeyStoreError") == false && response.error?.contains(temporary.path) == false)
    }

    @Test func `an edited attribute, a swapped file or a lost key file is refused as corrupted`() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        let store = FileKeyStore(directory: directory)
        _ = try await store.createKey(named: name, userPresenceRequired: true)
        _ = try await store.createKey(named: "other", userPresenceRequired: false)
        let path = (directory as NSString).appendingPathComponent("\(name).key")
        let original = try String(contentsOfFile: path, encoding: .utf8)

        // Turning the user-presence requirement off breaks the GCM tag.
        try original.replacingOccurrences(of: "\"userPresenceRequired\" : true", with: "\"userPresenceRequired\" : false")
            .write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try String(contentsOfFile: path, encoding: .utf8) != original)
        await #expect(throws: KeyStoreError(.corrupted, "")) { _ = try await store.loadKey(named: name) }

        // Another key's file under this name.
        let other = try String(contentsOfFile: (directory as NSString).appendingPathComponent("other.key"), encoding: .utf8)
        try other.write(toFile: path, atomically: false, encoding: .utf8)
        await #expect(throws: KeyStoreError(.corrupted, "")) { _ = try await store.loadKey(named: name) }

        try "not json".write(toFile: path, atomically: false, encoding: .utf8)
        await #expect(throws: KeyStoreError(.corrupted, "")) { _ = try await store.loadKey(named: name) }

        try FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent("keystore.secret"))
        await #expect(throws: KeyStoreError(.corrupted, "")) { _ = try await store.loadKey(named: "other") }
    }

    @Test func `a directory or key file other users can access is refused`() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        let store = FileKeyStore(directory: directory)
        _ = try await store.createKey(named: name, userPresenceRequired: false)
        let path = (directory as NSString).appendingPathComponent("\(name).key")

        chmod(path, 0o644)
        await #expect(throws: KeyStoreError(.insecurePermissions, "")) { _ = try await store.loadKey(named: name) }
        chmod(path, 0o600)
        chmod(directory, 0o755)
        await #expect(throws: KeyStoreError(.insecurePermissions, "")) { _ = try await store.loadKey(named: name) }
        await #expect(throws: KeyStoreError(.insecurePermissions, "")) {
            _ = try await store.createKey(named: "another", userPresenceRequired: false)
        }
        chmod(directory, 0o700)
        #expect(try await store.loadKey(named: name) != nil)
    }

    @Test(arguments: ["", "../escape", "a/b", ".hidden", String(repeating: "k", count: 129)])
    func `names that could leave the directory are refused`(bad: String) async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let store = FileKeyStore(directory: temporary.file("keys"))
        await #expect(throws: KeyStoreError(.invalidName, "")) { _ = try await store.createKey(named: bad, userPresenceRequired: false) }
        await #expect(throws: KeyStoreError(.invalidName, "")) { _ = try await store.loadKey(named: bad) }
        await #expect(throws: KeyStoreError(.invalidName, "")) { _ = try await InMemoryKeyStore().loadKey(named: bad) }
    }

    @Test func `the SDK enrolled with one instance is found by the next, as a CLI run after run needs`() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.file("keys")
        let transport = FakeTransport()
        transport.on("POST", PushFixture.credentialPath, json: #"{"userAuthenticatorId":"ua_1","userId":"alice","verifiedAt":"t"}"#)
        transport.on("GET", PushFixture.credentialPath, json: PushFixture.credentialJSON)
        func sdk() -> Assent {
            Assent(tenantID: "t", baseURL: PushFixture.baseURL,
                   keyStore: FileKeyStore(directory: directory, passphrase: "p", iterations: rounds),
                   transport: transport, clock: .system)
        }
        #expect(await sdk().push.addCredential(token: "t").data?.credentialId == "ua_1")
        #expect(await sdk().push.getCredential().data?.credentialId == "ua_1")
        let sent = try transport.requests.map { try $0.method == "GET" ? $0.query("publicKey") : Base64.encodeURL(Array(($0.jsonBody()["publicKey"] as? String ?? "").utf8)) }
        #expect(sent.count == 2 && sent[0] == sent[1])
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
