import AssentCrypto
@testable import AssentServerCore
@testable import AssentStorage
import AssentWire
import Testing

/// What the bulk loader promises on both stores (``SeedStore``, ``Seeder``): every table gets its rows in one batch
/// (more rows than one statement carries), seeding the same users again adds nothing, the derived device keys are the
/// stored ones, and no seeded challenge is open or counted by the push guard. Serialized like the other PostgreSQL
/// suites.
@Suite(.serialized) struct SeedStoreTests {
    static let masterKey = Array(repeating: UInt8(7), count: 32)
    static let now: Int64 = 1_800_000_000_000

    static func seeder(seed: String = "test-seed", now: Int64 = now) -> Seeder {
        Seeder(tenant: StoreTests.tenant(), seed: seed, qrCode: true, powerAuth: true, masterKey: masterKey, now: now)
    }

    /// Rows in `table`, read through the store's own connection.
    static func count(_ table: String, in store: any ServerStore) async throws -> Int {
        func count(in store: some SQLStore) async throws -> Int {
            try await store.read { try $0.queryOne(SQL("SELECT count(*) FROM \(table)"), []) { Int($0.int64(0)) } ?? 0 }
        }
        let sql = try #require(store as? any SQLStore)
        return try await count(in: sql)
    }

    @Test(arguments: StoreKind.allCases)
    func `a batch fills every table once, and seeding the same users again adds nothing`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await store.tenantHasUsers(tenantID: "t1") == false)

        let users = SeedQueries.rowsPerStatement + 50
        let batch = try Self.seeder().batch(0..<users)
        let expected = SeedCounts(
            users: users, authenticators: 2 * users, actions: 5 * users, challenges: 4 * users, activations: users)
        #expect(batch.counts == expected)
        #expect(try await store.insertSeedBatch(batch) == expected)
        for (table, rows) in [("users", users), ("authenticators", 2 * users), ("actions", 5 * users),
                              ("challenges", 4 * users), ("activations", users)] {
            #expect(try await Self.count(table, in: store) == rows, "\(table)")
        }
        #expect(try await store.tenantHasUsers(tenantID: "t1"))
        #expect(try await store.tenantHasUsers(tenantID: "t2") == false)

        // The same seed later (another clock, another random server key per activation): the same ids, nothing new.
        let again = try Self.seeder(now: Self.now + 3_600_000).batch(0..<users)
        #expect(try await store.insertSeedBatch(again) == SeedCounts())
        #expect(try await Self.count("users", in: store) == users)
        #expect(try await Self.count("challenges", in: store) == 4 * users)
        // More users with the same seed add only theirs.
        #expect(try await store.insertSeedBatch(try Self.seeder().batch(users..<(users + 3))).users == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func `a seeded device's derived key is the stored one and its signature verifies`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        _ = try await store.insertSeedBatch(try Self.seeder().batch(0..<20))

        for (credential, method) in [(SeededDevice.Credential.push, VerificationMethod.push), (.qrCode, .device)] {
            let key = try SeededDevice.privateKey(seed: "test-seed", index: 13, credential: credential)
            let stored = try #require(
                try await store.authenticator(tenantID: "t1", method: method, publicKey: key.publicKey.spkiDER))
            #expect(stored.userID == SeededDevice.userID(13))
            let publicKey = try P256.PublicKey(spkiDER: try #require(stored.publicKey))
            let message = Array("challenge-id".utf8)
            #expect(publicKey.isValidSignature(try key.signature(for: message), for: message))
        }
        // Another seed derives other keys, which no seeded credential has.
        let stranger = try SeededDevice.privateKey(seed: "other-seed", index: 13)
        #expect(try await store.authenticator(tenantID: "t1", method: .push, publicKey: stranger.publicKey.spkiDER) == nil)

        // The activation's sealed master secret is the one the seeded device key agrees with the server key.
        let activation = try #require(try await store.activations(tenantID: "t1", userID: SeededDevice.userID(13)).first)
        #expect(activation.status == .active)
        let deviceKey = try SeededDevice.privateKey(seed: "test-seed", index: 13, credential: .powerAuth)
        #expect(activation.devicePublicKey == deviceKey.publicKey.x962Uncompressed)
        let opened = try SecretSealer(masterKey: Self.masterKey).open(
            activation.sealedMasterSecret, context: ActivationService.masterSecretContext(activation.id))
        #expect(opened == (try PowerAuth.masterSecret(
            privateKey: deviceKey, publicKey: try P256.PublicKey(x962: activation.serverPublicKey))))
    }

    @Test(arguments: StoreKind.allCases)
    func `seeded history leaves no open challenge and nothing the push guard counts`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let batch = try Self.seeder().batch(0..<30)
        _ = try await store.insertSeedBatch(batch)
        #expect(batch.challenges.allSatisfy { !$0.isOpen(at: Self.now) })
        #expect(batch.challenges.allSatisfy { $0.expiresAt < Self.now - PushGuard.window })
        for index in [0, 17, 29] {
            let read = try await store.pushGuard(tenantID: "t1", userID: SeededDevice.userID(index), now: Self.now)
            #expect(read.stored == nil && read.expiredAt.isEmpty)
        }
    }

    @Test func `derived keys are deterministic and differ by seed, index and credential`() throws {
        let key = try SeededDevice.privateKey(seed: "s", index: 1).rawRepresentation
        #expect(try SeededDevice.privateKey(seed: "s", index: 1, credential: .push).rawRepresentation == key)
        #expect(try SeededDevice.privateKey(seed: "s", index: 2).rawRepresentation != key)
        #expect(try SeededDevice.privateKey(seed: "t", index: 1).rawRepresentation != key)
        #expect(try SeededDevice.privateKey(seed: "s", index: 1, credential: .qrCode).rawRepresentation != key)
        // The documented derivation: HKDF-SHA256(seed, "", "assent-seed" || credential || index || attempt).
        let scalar = try HKDFSHA256.deriveKey(
            inputKeyMaterial: Array("s".utf8), salt: [],
            info: Array("assent-seed".utf8) + [1, 0, 0, 0, 0, 0, 0, 0, 1, 0], outputByteCount: 32)
        #expect(scalar == key)
    }
}
