@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import Testing

/// What every store promises for PowerAuth (``ActivationStore``), proved on an SQLite file and on a PostgreSQL
/// database: one application per tenant even when creators race, activations keyed by id and enrolment token, and an
/// update that reads, decides and writes as one unit. Serialized like the other PostgreSQL suites, so their pools do
/// not starve the timing-sensitive HTTP tests running beside them on two cores.
@Suite(.serialized) struct ActivationStoreTests {
    static func application(tenant: String = "t1", key: String = "app-key") -> PowerAuthApplication {
        PowerAuthApplication(
            tenantID: tenant, applicationKey: key, applicationSecret: "secret-\(key)", masterPublicKey: [4, 1, 2, 3],
            sealedMasterPrivateKey: Array(0...40), createdAt: 7)
    }

    static func activation(_ id: String, user: String = "u", enrolmentKey: String? = nil, createdAt: Int64 = 10) -> ActivationRecord {
        ActivationRecord(
            id: id, tenantID: "t1", userID: user, name: "Phone \(id)", status: .pendingCommit,
            devicePublicKey: [4] + Array(repeating: 0xd0, count: 64), serverPublicKey: [4] + Array(repeating: 0x5e, count: 64),
            sealedMasterSecret: Array(0...255), counterData: Array(repeating: 0xc7, count: 16), fingerprint: "12345678",
            enrolmentKey: enrolmentKey ?? "enrol-\(id)", createdAt: createdAt, updatedAt: createdAt)
    }

    /// Inserts `activation` as the activation service does, for an enrolment token whose action exists (tracked here
    /// when missing).
    static func insertActivation(_ store: any ServerStore, _ activation: ActivationRecord) async throws {
        try await StoreTests.enrolmentAction(store, key: activation.enrolmentKey, user: activation.userID)
        try await store.insertActivation(activation)
    }

    @Test(arguments: StoreKind.allCases) func `a tenant has one PowerAuth application, whoever creates it first`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await store.powerAuthApplication(tenantID: "t1") == nil)
        let first = Self.application()
        #expect(try await store.insertPowerAuthApplication(first) == first)
        #expect(try await store.insertPowerAuthApplication(Self.application(key: "late")) == first)
        #expect(try await store.powerAuthApplication(tenantID: "t1") == first)

        // Creators racing through two instances all get the one that was stored.
        try await store.insertTenant(StoreTests.tenant(id: "t2", secret: 2))
        let other = try await fixture.another()
        let stored = try await withThrowingTaskGroup(of: PowerAuthApplication.self) { group in
            for i in 0..<8 {
                let instance = i % 2 == 0 ? store : other
                group.addTask { try await instance.insertPowerAuthApplication(Self.application(tenant: "t2", key: "k\(i)")) }
            }
            return try await group.reduce(into: Set<PowerAuthApplication>()) { $0.insert($1) }
        }
        #expect(stored.count == 1)
        #expect(try await store.powerAuthApplication(tenantID: "t2") == stored.first)
        await other.close()
    }

    @Test(arguments: StoreKind.allCases) func `activations round-trip, create their user, and are unique by id and enrolment token`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var first = Self.activation("a1", createdAt: 10)
        first.lastUsedAt = Int64.max
        first.blockedReason = .blockedByBackend
        try await Self.insertActivation(store, first)
        try await Self.insertActivation(store, Self.activation("a2", createdAt: 5))
        #expect(try await store.activation(id: "a1") == first)
        #expect(try await store.activation(id: "missing") == nil)
        #expect(try await store.user(tenantID: "t1", userID: "u") != nil, "the activation created its user record")
        #expect(try await store.activations(tenantID: "t1", userID: "u").map(\.id) == ["a2", "a1"])
        #expect(try await store.activations(tenantID: "t1", userID: "nobody").isEmpty)

        await #expect(throws: StoreError(.constraintViolation, "")) {
            try await Self.insertActivation(store, Self.activation("a1", enrolmentKey: "fresh"))
        }
        await #expect(throws: EnrolmentTokenUsed.self) {
            try await store.insertActivation(Self.activation("a3", enrolmentKey: "enrol-a1"))
        }
        await #expect(throws: EnrolmentTokenUsed.self, "an enrolment token whose action is gone enrols nothing") {
            try await store.insertActivation(Self.activation("a4", enrolmentKey: "never-tracked"))
        }
        #expect(try await store.activations(tenantID: "t1", userID: "u").count == 2)
        // The refused insert left its token unused: the mark and the row are one transaction.
        try await store.insertActivation(Self.activation("a5", enrolmentKey: "fresh"))
    }

    struct Refused: Error {}

    @Test(arguments: StoreKind.allCases) func `an update writes what its closure changed, and nothing when it throws`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await Self.insertActivation(store, Self.activation("a1"))
        #expect(try await store.updateActivation(id: "missing") { _ in true } == nil)

        let counter = try await store.updateActivation(id: "a1") { record -> Int64 in
            record.status = .active
            record.counter = 3
            record.counterData = Array(repeating: 0x11, count: 16)
            record.failedAttempts = 2
            record.updatedAt = 20
            record.lastUsedAt = 20
            record.name = nil
            return record.counter
        }
        #expect(counter == 3)
        var expected = Self.activation("a1")
        expected.status = .active
        expected.counter = 3
        expected.counterData = Array(repeating: 0x11, count: 16)
        expected.failedAttempts = 2
        expected.updatedAt = 20
        expected.lastUsedAt = 20
        expected.name = nil
        #expect(try await store.activation(id: "a1") == expected)

        await #expect(throws: Refused.self) {
            _ = try await store.updateActivation(id: "a1") { record -> Bool in
                record.status = .blocked
                record.blockedReason = .maxFailedAttempts
                throw Refused()
            }
        }
        #expect(try await store.activation(id: "a1") == expected)
        #expect(try await store.updateActivation(id: "a1") { $0.counter } == 3)
    }
}
