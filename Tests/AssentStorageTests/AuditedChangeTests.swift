@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import AssentWire
import Testing

/// A change and its audit entry are one transaction, on both stores: with the audit append refused (a trigger on
/// `audit_entries` that fails every insert, as a full disk or a broken chain lock would), the change is not there
/// either; once appends work again, the same change writes both. Each test goes through the service that owns the
/// change where that service needs no device keys (users, backend activation changes), and through the store
/// operation the device services call otherwise (signed removal, enrolment, a fraud report's answer).
@Suite(.serialized) struct AuditedChangeTests {
    static let masterKey = [UInt8](repeating: 9, count: 32)

    /// A store with tenant `t1`, a clock and an audit log over them.
    struct Setup {
        let fixture: StoreFixture
        let clock: ServerTestClock
        let audit: AuditLog
        var store: any ServerStore { fixture.store }
        var tenant: Tenant { StoreTests.tenant() }

        init(_ kind: StoreKind) async throws {
            fixture = try await StoreTests.fixture(kind)
            clock = ServerTestClock()
            audit = AuditLog(store: fixture.store, masterKey: AuditedChangeTests.masterKey, clock: clock.wallClock)
        }

        var users: UserService {
            UserService(
                store: store, clock: clock.wallClock,
                webhooks: WebhookEvents(clock: clock.wallClock, source: PublicURL("http://127.0.0.1")), audit: audit)
        }

        /// `t1`'s audit entries.
        func entries() async throws -> [AuditEntry] { try await audit.entries(AuditQuery(tenantID: "t1")) }
    }

    /// Makes every audit append fail (`refuse: true`) or work again, on the database directly.
    static func refuseAudit(_ fixture: StoreFixture, _ refuse: Bool) async throws {
        let statements: [String] = switch (fixture.kind, refuse) {
        case (.sqlite, true):
            ["CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'audit refused'); END"]
        case (.sqlite, false):
            ["DROP TRIGGER refuse_audit"]
        case (.postgres, true):
            ["""
             CREATE OR REPLACE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'audit refused'; END $$
             """,
             "CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_entries FOR EACH ROW EXECUTE FUNCTION refuse_audit()"]
        case (.postgres, false):
            ["DROP TRIGGER refuse_audit ON audit_entries"]
        }
        try await AuditStoreTests.tamper(fixture, statements)
    }

    @Test(arguments: StoreKind.allCases) func `a user deleted without its audit entry is not deleted`(kind: StoreKind) async throws {
        let setup = try await Setup(kind)
        defer { withExtendedLifetime(setup.fixture) {} }
        try await setup.store.insertAuthenticator(StoreTests.device("d1", user: "u", key: 1))
        try await Self.refuseAudit(setup.fixture, true)
        await #expect(throws: (any Error).self) {
            try await setup.users.delete(tenant: setup.tenant, userID: "u", actor: "secret-key")
        }
        #expect(try await setup.store.user(tenantID: "t1", userID: "u") != nil)
        #expect(try await setup.store.authenticators(tenantID: "t1", userID: "u").map(\.id) == ["d1"])
        #expect(try await setup.entries().isEmpty)

        try await Self.refuseAudit(setup.fixture, false)
        #expect(try await setup.users.delete(tenant: setup.tenant, userID: "u", actor: "secret-key"))
        #expect(try await setup.store.user(tenantID: "t1", userID: "u") == nil)
        let entries = try await setup.entries()
        #expect(entries.map(\.kind) == [.userDeleted])
        #expect(entries.first?.subject == "u" && entries.first?.actor == "secret-key")
        // Deleting nobody changes and records nothing.
        #expect(try await !setup.users.delete(tenant: setup.tenant, userID: "u", actor: "secret-key"))
        #expect(try await setup.entries().count == 1)
    }

    @Test(arguments: StoreKind.allCases) func `an authenticator enrolled or removed by the backend goes with its audit entry or not at all`(
        kind: StoreKind
    ) async throws {
        let setup = try await Setup(kind)
        defer { withExtendedLifetime(setup.fixture) {} }
        let users = setup.users
        try await Self.refuseAudit(setup.fixture, true)
        await #expect(throws: (any Error).self) {
            try await users.enrollVerified(
                tenant: setup.tenant, userID: "u", method: .emailOTP, email: "u@example.com", phoneNumber: nil,
                isDefault: false, actor: "secret-key")
        }
        #expect(try await setup.store.authenticators(tenantID: "t1", userID: "u").isEmpty)

        try await Self.refuseAudit(setup.fixture, false)
        let enrolled = try await users.enrollVerified(
            tenant: setup.tenant, userID: "u", method: .emailOTP, email: "u@example.com", phoneNumber: nil,
            isDefault: false, actor: "secret-key")
        #expect(try await setup.store.authenticators(tenantID: "t1", userID: "u").map(\.id) == [enrolled.id])

        try await Self.refuseAudit(setup.fixture, true)
        await #expect(throws: (any Error).self) {
            try await users.deleteAuthenticator(tenant: setup.tenant, userID: "u", id: enrolled.id, actor: "console:secret-key")
        }
        #expect(try await setup.store.authenticators(tenantID: "t1", userID: "u").map(\.id) == [enrolled.id])

        try await Self.refuseAudit(setup.fixture, false)
        try await users.deleteAuthenticator(tenant: setup.tenant, userID: "u", id: enrolled.id, actor: "console:secret-key")
        #expect(try await setup.store.authenticators(tenantID: "t1", userID: "u").isEmpty)
        let entries = try await setup.entries()
        #expect(entries.map(\.kind) == [.credentialEnrolled, .credentialRemoved])
        #expect(entries.map(\.subject) == [enrolled.id, enrolled.id])
        #expect(entries[0].details == ["userId": "u", "verificationMethod": "EMAIL_OTP"])
        #expect(entries[1].actor == "console:secret-key")
        #expect(try await AuditLog(store: setup.store, masterKey: Self.masterKey, clock: .system)
            .verify(tenantID: "t1").verification == .intact(2))
    }

    @Test(arguments: StoreKind.allCases) func `an activation blocked by the backend without its audit entry stays active`(
        kind: StoreKind
    ) async throws {
        let setup = try await Setup(kind)
        defer { withExtendedLifetime(setup.fixture) {} }
        var activation = ActivationStoreTests.activation("a1")
        activation.status = .active
        try await ActivationStoreTests.insertActivation(setup.store, activation)
        let service = ActivationService(
            store: setup.store, clock: setup.clock.wallClock, masterKey: Self.masterKey, audit: setup.audit)
        try await Self.refuseAudit(setup.fixture, true)
        await #expect(throws: (any Error).self) {
            try await service.change(tenantID: "t1", id: "a1", .block, actor: "secret-key")
        }
        #expect(try await setup.store.activation(id: "a1")?.status == .active)

        try await Self.refuseAudit(setup.fixture, false)
        let blocked = try await service.change(tenantID: "t1", id: "a1", .block, actor: "secret-key")
        #expect(blocked.status == .blocked)
        #expect(try await setup.store.activation(id: "a1")?.status == .blocked)
        let entries = try await setup.entries()
        #expect(entries.map(\.kind) == [.activationBlocked])
        #expect(entries.first?.details == ["userId": "u"])
    }

    @Test(arguments: StoreKind.allCases) func `a device credential's signed removal and enrolment go with their audit entries or not at all`(
        kind: StoreKind
    ) async throws {
        let setup = try await Setup(kind)
        defer { withExtendedLifetime(setup.fixture) {} }
        let store = setup.store
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        let removal = setup.audit.entry(tenantID: "t1", .credentialRemoved, actor: "device", subject: "d1")
        try await Self.refuseAudit(setup.fixture, true)
        await #expect(throws: (any Error).self) {
            try await store.removeDeviceCredential(
                tenantID: "t1", userID: "u", id: "d1", spending: [[1, 2, 3]], keepUntil: 10_000, audit: removal,
                events: { _ in [] })
        }
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").map(\.id) == ["d1"])

        try await Self.refuseAudit(setup.fixture, false)
        // The signature was not spent by the failed removal: it removes now.
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d1", spending: [[1, 2, 3]], keepUntil: 10_000, audit: removal,
            events: { _ in [] }) == .removed)
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").isEmpty)

        try await StoreTests.enrolmentAction(store, key: "enrol-1")
        let candidate = StoreTests.device("d2", key: 2)
        let audit = setup.audit
        let enrol = { @Sendable () async throws -> DeviceCredentialEnrolment in
            try await store.enrollDeviceCredential(
                candidate, enrolmentKey: "enrol-1", attestation: nil, reenrol: { _ in },
                audit: { audit.entry(tenantID: "t1", .credentialEnrolled, actor: "device", subject: $0.id) },
                events: { _, _ in [] })
        }
        try await Self.refuseAudit(setup.fixture, true)
        await #expect(throws: (any Error).self) { try await enrol() }
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").isEmpty)

        try await Self.refuseAudit(setup.fixture, false)
        #expect(try await enrol().created)
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").map(\.id) == ["d2"])
        #expect(try await setup.entries().map(\.kind) == [.credentialRemoved, .credentialEnrolled])
        #expect(try await setup.entries().map(\.subject) == ["d1", "d2"])
    }

    @Test(arguments: StoreKind.allCases) func `a fraud report's answer, push lock, timeline entry and audit entry are one transaction`(
        kind: StoreKind
    ) async throws {
        let setup = try await Setup(kind)
        defer { withExtendedLifetime(setup.fixture) {} }
        let store = setup.store
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        let challenge = StoreTests.pushChallenge("c1", now: 10)
        #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        let guards = PushGuards(store: store, clock: setup.clock.wallClock, webhooks: nil)
        var tenant = setup.tenant
        tenant.settings.fraudLockSeconds = 600
        let authenticator = try #require(try await store.authenticators(tenantID: "t1", userID: "u").first)
        let now: Int64 = 500
        let change = try #require(guards.fraudReport(tenant: tenant, challenge: challenge, authenticator: authenticator, now: now))
        let entry = setup.audit.entry(
            tenantID: "t1", .fraudReported, actor: "device", subject: "u",
            details: ["challengeId": "c1", "userAuthenticatorId": "d1"])
        let report = { @Sendable () async throws -> Challenge? in
            try await store.answerChallenge(
                tenantID: "t1", id: "c1", from: Challenge.Kind.push.answerableStates, approved: false,
                authenticatorID: "d1", verificationMethod: .push, now: now, changing: change, audit: entry, recording: nil)
        }

        try await Self.refuseAudit(setup.fixture, true)
        await #expect(throws: (any Error).self) { try await report() }
        #expect(try await store.challenge(tenantID: "t1", id: "c1")?.state == .pending)
        #expect(try await store.pushGuard(tenantID: "t1", userID: "u", now: now).stored == nil)
        #expect(try await store.challengeTimeline(tenantID: "t1", challengeID: "c1").isEmpty)
        #expect(try await setup.entries().isEmpty)

        try await Self.refuseAudit(setup.fixture, false)
        let answered = try #require(try await report())
        #expect(answered.state == .denied && answered.answeredBy == "d1")
        let locked = try #require(try await store.pushGuard(tenantID: "t1", userID: "u", now: now).stored)
        #expect(locked.lockedUntil == now + 600_000 && locked.consecutiveFailures == 1)
        #expect(try await store.challengeTimeline(tenantID: "t1", challengeID: "c1").map(\.event) == ["push.fraud_reported"])
        let entries = try await setup.entries()
        #expect(entries.map(\.kind) == [.fraudReported])
        #expect(entries.first?.details == ["challengeId": "c1", "userAuthenticatorId": "d1"])
        // Answered once: a second report finds it closed and changes nothing more.
        #expect(try await report() == nil)
        #expect(try await setup.entries().count == 1)
    }
}
