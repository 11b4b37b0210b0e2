@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentWire
import Foundation
import Testing

/// The behaviour every store promises (``ServerStore``), proved on each: an SQLite file and a PostgreSQL database.
/// Serialized (like the other PostgreSQL suites): each test brings up pools of server processes, and running them all
/// at once on two cores starves the timing-sensitive HTTP tests that run beside them.
@Suite(.serialized) struct StoreTests {
    static func tenant(id: String = "t1", secret: UInt8 = 1) -> Tenant {
        Tenant(id: id, name: "T", secretHash: Array(repeating: secret, count: 32), secretVersion: 1, keyVersion: 1,
               settings: TenantSettings(), createdAt: 1)
    }

    /// A fresh store with tenant `t1`.
    static func fixture(_ kind: StoreKind) async throws -> StoreFixture {
        let fixture = try await StoreFixture.make(kind)
        try await fixture.store.insertTenant(tenant())
        return fixture
    }

    @Test(arguments: StoreKind.allCases) func `tenants round-trip and their secrets are unique`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var twin = Self.tenant()
        twin.id = "t2"
        await #expect(throws: StoreError(.constraintViolation, "")) { try await store.insertTenant(twin) }
        #expect(try await store.tenants().map(\.id) == ["t1"])
        var changed = try #require(try await store.tenant(id: "t1"))
        #expect(changed == Self.tenant())
        #expect(try await store.tenant(secretHash: Array(repeating: 1, count: 32))?.id == "t1")
        changed.name = "Renamed"
        changed.settings.webhookURL = "http://127.0.0.1:1/hooks"
        #expect(try await store.updateTenant(changed))
        #expect(try await store.tenant(id: "t1") == changed)
        changed.id = "missing"
        #expect(try await !store.updateTenant(changed))
    }

    @Test(arguments: StoreKind.allCases)
    func `a settings change in the store's transaction keeps a secret rotated since the tenant was read`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let key = AuditKey(masterKey: [UInt8](repeating: 4, count: 32))
        var rotated = try #require(try await store.tenant(id: "t1"))
        rotated.secretVersion = 2
        rotated.secretHash = Array(repeating: 9, count: 32)
        #expect(try await store.updateTenant(rotated))
        let entry = AuditAppend(AuditEvent(tenantID: "t1", at: 5, kind: .masterKeyRotated, actor: "cli"), key: key)
        #expect(try await store.updateTenantSettings(id: "t1", audit: entry) { $0.webhookURL = "http://127.0.0.1:1/h" })
        let stored = try #require(try await store.tenant(id: "t1"))
        #expect(stored.secretVersion == 2 && stored.secretHash == rotated.secretHash)
        #expect(stored.settings.webhookURL == "http://127.0.0.1:1/h")
        #expect(try await store.auditEntries(AuditQuery(tenantID: "t1")).map(\.kind) == [.masterKeyRotated])
        #expect(try await !store.updateTenantSettings(id: "missing", audit: entry) { $0.webhookURL = nil })
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.updateTenantSettings(id: "t1", audit: entry) { _ in throw Refused() }
        }
        #expect(try await store.auditEntries(AuditQuery(tenantID: "t1")).count == 1, "a refused change appends nothing")
    }

    @Test(arguments: StoreKind.allCases)
    func `tracking inserts user and action in one transaction and is idempotent per key`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k1",
                            state: .challengeRequired, now: 10)
        let first = try await store.trackAction(action, user: { $0 ?? User(tenantID: "t1", userID: "u", now: 10) },
                                                decide: { a, auths in a.state = auths.isEmpty ? .allow : .block })
        #expect(first.created && first.action.state == .allow)
        let again = try await store.trackAction(action, user: { $0! }, decide: { a, _ in a.state = .block })
        #expect(!again.created && again.action.state == .allow)

        var other = action
        other.userID = "someone-else"
        await #expect(throws: StoreError(.constraintViolation, "")) {
            _ = try await store.trackAction(other, user: { _ in User(tenantID: "t1", userID: "someone-else", now: 1) },
                                            decide: { _, _ in })
        }
        // The refused track left no user behind.
        #expect(try await store.user(tenantID: "t1", userID: "someone-else") == nil)
        #expect(try await store.action(tenantID: "t1", idempotencyKey: "k1") == first.action)
        let updated = try await store.updateActionState(
            tenantID: "t1", idempotencyKey: "k1", state: .reviewRequired, verificationMethod: .push, at: 20)
        #expect(updated?.state == .reviewRequired && updated?.verificationMethod == .push && updated?.stateUpdatedAt == 20)
        #expect(try await store.updateActionState(
            tenantID: "t1", idempotencyKey: "nope", state: .allow, verificationMethod: nil, at: 20) == nil)
    }

    @Test(arguments: StoreKind.allCases) func `exactly one concurrent validation marks an action`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "race",
                            state: .challengeSucceeded, now: 10)
        _ = try await store.trackAction(action, user: { _ in User(tenantID: "t1", userID: "u", now: 1) },
                                        decide: { a, _ in a.state = .challengeSucceeded })
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 {
                group.addTask { try await store.markActionValidated(tenantID: "t1", idempotencyKey: "race", at: 5) }
            }
            var count = 0
            for try await won in group where won { count += 1 }
            return count
        }
        #expect(winners == 1)
    }

    @Test(arguments: StoreKind.allCases) func `deleting a user removes its authenticators and actions`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var authenticator = Authenticator(id: "a1", tenantID: "t1", userID: "gone", verificationMethod: .emailOTP, createdAt: 3)
        authenticator.email = "g@example.com"
        try await store.insertAuthenticator(authenticator)
        #expect(try await store.authenticators(tenantID: "t1", userID: "gone") == [authenticator])
        let action = Action(tenantID: "t1", userID: "gone", actionCode: "signIn", idempotencyKey: "kg",
                            state: .challengeRequired, now: 10)
        _ = try await store.trackAction(action, user: { $0! }, decide: { _, _ in })
        #expect(try await store.deleteUser(tenantID: "t1", userID: "gone") { _ in [] })
        #expect(try await store.authenticators(tenantID: "t1", userID: "gone").isEmpty)
        #expect(try await store.action(tenantID: "t1", idempotencyKey: "kg") == nil)
        #expect(try await !store.deleteUser(tenantID: "t1", userID: "gone") { _ in [] })
    }

    @Test(arguments: StoreKind.allCases) func `custom data round-trips as JSON`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var user = User(tenantID: "t1", userID: "c", now: 1)
        user.custom = ["n": .number(2), "s": .string("x"), "o": .object(["b": .bool(true)]), "a": .array([.null])]
        user.emailVerified = true
        user.displayName = "Cé"
        try await store.saveUser(user)
        #expect(try await store.user(tenantID: "t1", userID: "c") == user)
    }

    static func device(_ id: String, user: String = "u", key: UInt8) -> Authenticator {
        var device = Authenticator(id: id, tenantID: "t1", userID: user, verificationMethod: .push, createdAt: 5)
        device.publicKey = [0x30, 0x00, key, 0xff]
        device.pushToken = "push-\(id)"
        device.userPresenceRequired = true
        device.authenticationTimeout = 30
        return device
    }

    static func enrolmentAction(_ store: any ActionStore, key: String, user: String = "u") async throws {
        let action = Action(tenantID: "t1", userID: user, actionCode: "enrol", idempotencyKey: key,
                            state: .allow, now: 1)
        _ = try await store.trackAction(action, user: { $0 ?? User(tenantID: "t1", userID: user, now: 1) }, decide: { _, _ in })
    }

    @Test(arguments: StoreKind.allCases)
    func `device credentials enrol once per token, re-enrol the same key and renew only what changed`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await Self.enrolmentAction(store, key: "enrol-1")
        let first = Self.device("d1", key: 1)
        let enrolled = try await store.enrollDevice(first, enrolmentKey: "enrol-1") { a, c in
            [WebhookEvent(id: "e-\(a.id)-\(c)", tenantID: "t1", type: "authenticator.created", body: "{}", createdAt: 1)]
        }
        #expect(enrolled.created && enrolled.authenticator == first)
        #expect(try await store.authenticator(tenantID: "t1", method: .push, publicKey: first.publicKey!) == first)
        // The same token enrols the same key again (idempotently) but never a second key.
        var again = Self.device("d1-bis", key: 1)
        again.deviceName = "renamed"
        let reenrolled = try await store.enrollDevice(again, enrolmentKey: "enrol-1") { _, _ in [] }
        #expect(!reenrolled.created && reenrolled.authenticator.id == "d1" && reenrolled.authenticator.deviceName == "renamed")
        await #expect(throws: EnrolmentTokenUsed.self) {
            _ = try await store.enrollDevice(Self.device("d2", key: 2), enrolmentKey: "enrol-1") { _, _ in [] }
        }
        // The key belongs to u: another user cannot enrol it.
        try await Self.enrolmentAction(store, key: "enrol-other", user: "other")
        await #expect(throws: StoreError(.constraintViolation, "")) {
            _ = try await store.enrollDevice(
                Self.device("d3", user: "other", key: 1), enrolmentKey: "enrol-other") { _, _ in [] }
        }
        let renewed = try await store.renewDeviceCredential(
            tenantID: "t1", id: "d1", pushToken: "fresh", expiresAt: 99, at: 50) { _ in [] }
        #expect(renewed?.pushToken == "fresh" && renewed?.expiresAt == 99 && renewed?.lastVerifiedAt == 50)
        let kept = try await store.renewDeviceCredential(tenantID: "t1", id: "d1", pushToken: nil, expiresAt: nil, at: 60) { _ in [] }
        #expect(kept?.pushToken == "fresh" && kept?.expiresAt == 99 && kept?.lastVerifiedAt == 60)
        #expect(try await store.renewDeviceCredential(tenantID: "t1", id: "nope", pushToken: nil, expiresAt: nil, at: 1) { _ in [] } == nil)
        let due = try await store.dueWebhookEvents(now: 10, limit: 10)
        #expect(due.map(\.id) == ["e-d1-true"])
        #expect(try await store.deleteAuthenticator(tenantID: "t1", userID: "u", id: "d1") { _ in [] })
        #expect(try await !store.deleteAuthenticator(tenantID: "t1", userID: "u", id: "d1") { _ in [] })
    }

    @Test(arguments: StoreKind.allCases)
    func `the signature scheme round-trips and a re-enrolment never lowers it`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await Self.enrolmentAction(store, key: "enrol-1")
        var bound = Self.device("d1", key: 1)
        bound.signatureScheme = .bound
        _ = try await store.enrollDevice(bound, enrolmentKey: "enrol-1") { _, _ in [] }
        #expect(try await store.authenticator(tenantID: "t1", method: .push, publicKey: bound.publicKey!)?.signatureScheme == .bound)
        // The same key enrolled again without the scheme (a box stripped it): still bound.
        try await Self.enrolmentAction(store, key: "enrol-2")
        let stripped = try await store.enrollDevice(Self.device("d1-bis", key: 1), enrolmentKey: "enrol-2") { _, _ in [] }
        #expect(!stripped.created && stripped.authenticator.id == "d1" && stripped.authenticator.signatureScheme == .bound)
        #expect(try await store.authenticator(tenantID: "t1", method: .push, publicKey: bound.publicKey!)?.signatureScheme == .bound)
        // A compatible credential is raised by a bound re-enrolment.
        try await Self.enrolmentAction(store, key: "enrol-3")
        _ = try await store.enrollDevice(Self.device("d2", key: 2), enrolmentKey: "enrol-3") { _, _ in [] }
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").first { $0.id == "d2" }?.signatureScheme == .compatible)
        try await Self.enrolmentAction(store, key: "enrol-4")
        var raised = Self.device("d2-bis", key: 2)
        raised.signatureScheme = .bound
        #expect(try await store.enrollDevice(raised, enrolmentKey: "enrol-4") { _, _ in [] }.authenticator.signatureScheme == .bound)
    }

    @Test(arguments: StoreKind.allCases) func `a removal signature removes once, and is kept until it lapses`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(Self.device("d1", key: 1))
        try await store.insertAuthenticator(Self.device("d2", key: 2))
        let spent: [UInt8] = Array(repeating: 7, count: 32)
        // Not there: nothing removed and the signature is not spent.
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "nope", spending: [spent], keepUntil: 1_000) { _ in [] } == .notFound)
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d1", spending: [spent], keepUntil: 1_000) { a in
                [WebhookEvent(id: "e-\(a.id)", tenantID: "t1", type: "authenticator.deleted", body: "{}", createdAt: 1)]
            } == .removed)
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").map(\.id) == ["d2"])
        #expect(try await store.dueWebhookEvents(now: 10, limit: 10).map(\.id) == ["e-d1"])
        // Spent: it removes nothing else, and queues nothing.
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d2", spending: [spent], keepUntil: 1_000) { _ in
                [WebhookEvent(id: "e-again", tenantID: "t1", type: "authenticator.deleted", body: "{}", createdAt: 1)]
            } == .signatureSpent)
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").map(\.id) == ["d2"])
        #expect(try await store.dueWebhookEvents(now: 10, limit: 10).isEmpty, "e-d1 was handed out; nothing new")
        // The sweep forgets it once it lapsed (the signature no longer verifies by then).
        _ = try await store.sweep(now: 1_001, challengesBefore: 0, eventsBefore: 0)
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d2", spending: [spent], keepUntil: 2_000) { _ in [] } == .removed)
    }

    @Test(arguments: StoreKind.allCases) func `a removal spends every name of its signature, or none when one was spent`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(Self.device("d1", key: 1))
        try await store.insertAuthenticator(Self.device("d2", key: 2))
        try await store.insertAuthenticator(Self.device("d3", key: 3))
        let (global, tenantOne, tenantTwo, older) = ([UInt8](repeating: 1, count: 32), [UInt8](repeating: 2, count: 32),
                                                    [UInt8](repeating: 3, count: 32), [UInt8](repeating: 4, count: 32))
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d1", spending: [global, tenantOne], keepUntil: 1_000) { _ in [] } == .removed)
        // The same signature under another tenant's name: its shared name is spent.
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d2", spending: [global, tenantTwo], keepUntil: 1_000) { _ in [] } == .signatureSpent)
        // A name an older instance recorded alone is honoured too, and the refusal records nothing of the rest.
        _ = try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d2", spending: [older], keepUntil: 1_000) { _ in [] }
        try await store.insertAuthenticator(Self.device("d2", key: 2))
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d2", spending: [tenantTwo, older], keepUntil: 1_000) { _ in [] } == .signatureSpent)
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").map(\.id).sorted() == ["d2", "d3"])
        #expect(try await store.removeDeviceCredential(
            tenantID: "t1", userID: "u", id: "d3", spending: [tenantTwo], keepUntil: 1_000) { _ in [] } == .removed,
                "the refused removal left tenantTwo unspent")
    }

    static func spentNonce(_ id: String, expiresAt: Int64 = 100) -> Nonce {
        Nonce(id: id, tenantID: "t1", authenticatorID: "d1", purpose: .updateCredential, message: id, createdAt: 1,
              expiresAt: expiresAt, usedAt: 5)
    }

    @Test(arguments: StoreKind.allCases) func `a nonce is spent once and kept until it expires`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(Self.device("d1", key: 1))
        #expect(try await store.spendNonce(Self.spentNonce("n1")))
        #expect(try await !store.spendNonce(Self.spentNonce("n1")))
        #expect(try await store.spendNonce(Self.spentNonce("n2", expiresAt: 50)))
        _ = try await store.sweep(now: 60, challengesBefore: 0, eventsBefore: 0)
        #expect(try await !store.spendNonce(Self.spentNonce("n1")), "an unexpired record outlives the sweep")
        #expect(try await store.spendNonce(Self.spentNonce("n2", expiresAt: 50)), "an expired one is swept")
    }

    @Test(arguments: StoreKind.allCases)
    func `one enrolment token enrols one credential, whatever its kind`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        func qr(_ id: String, key: UInt8) -> Authenticator {
            var device = Self.device(id, key: key)
            device.verificationMethod = .device
            return device
        }
        // A push key first: no activation, no QR key through the same token; the same key again still re-enrols.
        try await Self.enrolmentAction(store, key: "push-first")
        _ = try await store.enrollDevice(Self.device("d1", key: 1), enrolmentKey: "push-first") { _, _ in [] }
        await #expect(throws: EnrolmentTokenUsed.self) {
            try await store.insertActivation(ActivationStoreTests.activation("a1", enrolmentKey: "push-first"))
        }
        await #expect(throws: EnrolmentTokenUsed.self) {
            _ = try await store.enrollDevice(qr("q1", key: 1), enrolmentKey: "push-first") { _, _ in [] }
        }
        #expect(try await !store.enrollDevice(Self.device("d1-again", key: 1), enrolmentKey: "push-first") { _, _ in [] }.created)
        // An activation first: no push or QR key, no second activation through the same token.
        try await Self.enrolmentAction(store, key: "activation-first")
        try await store.insertActivation(ActivationStoreTests.activation("a2", enrolmentKey: "activation-first"))
        await #expect(throws: EnrolmentTokenUsed.self) {
            _ = try await store.enrollDevice(Self.device("d2", key: 2), enrolmentKey: "activation-first") { _, _ in [] }
        }
        await #expect(throws: EnrolmentTokenUsed.self) {
            _ = try await store.enrollDevice(qr("q2", key: 2), enrolmentKey: "activation-first") { _, _ in [] }
        }
        await #expect(throws: EnrolmentTokenUsed.self) {
            try await store.insertActivation(ActivationStoreTests.activation("a3", enrolmentKey: "activation-first"))
        }
        #expect(try await store.authenticators(tenantID: "t1", userID: "u").map(\.id) == ["d1"])
        #expect(try await store.activations(tenantID: "t1", userID: "u").map(\.id) == ["a2"])
    }

    @Test(arguments: StoreKind.allCases)
    func `the sweep deletes anonymous QR challenges no device claimed once they expire, and keeps the rest a day`(
        kind: StoreKind
    ) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var device = Self.device("d1", key: 1)
        device.verificationMethod = .device
        try await store.insertAuthenticator(device)
        func anonymous(_ id: String, expiresAt: Int64) -> Challenge {
            var challenge = Challenge(id: id, tenantID: "t1", kind: .qrCode, createdAt: 10, expiresAt: expiresAt)
            challenge.actionCode = "signIn"
            return challenge
        }
        // More than two sweep batches (``SweepBatch/size``), so the sweep goes on until a batch comes back short.
        let flood = 2 * SweepBatch.size + 50
        for i in 0..<flood { #expect(try await store.insertChallenge(anonymous("flood\(i)", expiresAt: 1000), maxOpenForUser: nil)) }
        #expect(try await store.insertChallenge(anonymous("live", expiresAt: 5001), maxOpenForUser: nil))
        // Claimed, and claimed then answered: they have a user and an action now, and keep their day.
        for id in ["claimed", "answered"] {
            #expect(try await store.insertChallenge(anonymous(id, expiresAt: 1000), maxOpenForUser: nil))
            let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k-\(id)",
                                state: .challengeRequired, now: 20)
            #expect(try await store.claimChallenge(tenantID: "t1", id: id, authenticator: device, anonymousAction: action, now: 20) != nil)
        }
        #expect(try await store.answerChallenge(
            tenantID: "t1", id: "answered", from: [.claimed], approved: true, authenticatorID: "d1",
            verificationMethod: .device, now: 30) != nil)
        // A tracked QR challenge and a push challenge, both unanswered: they belong to a user's action.
        var tracked = anonymous("tracked", expiresAt: 1000)
        tracked.userID = "u"
        #expect(try await store.insertChallenge(tracked, maxOpenForUser: nil))
        #expect(try await store.insertChallenge(Self.pushChallenge("push"), maxOpenForUser: nil))

        // Expired at 5000 but within the day: only the anonymous unclaimed ones go, all of them.
        #expect(try await store.sweep(now: 5000, challengesBefore: 5000 - 86_400_000, eventsBefore: 0) == flood)
        #expect(try await store.challenge(tenantID: "t1", id: "flood0") == nil)
        #expect(try await store.challenge(tenantID: "t1", id: "flood\(flood - 1)") == nil)
        for id in ["live", "claimed", "answered", "tracked", "push"] {
            #expect(try await store.challenge(tenantID: "t1", id: id) != nil, "\(id) is kept")
        }
        // The one that expires at 5001 goes once it has.
        #expect(try await store.sweep(now: 5001, challengesBefore: 5001 - 86_400_000, eventsBefore: 0) == 1)
        #expect(try await store.challenge(tenantID: "t1", id: "live") == nil)
        // A day later the rest go too, as before.
        #expect(try await store.sweep(now: 86_402_000, challengesBefore: 2000, eventsBefore: 0) == 4)
    }

    static func pushChallenge(_ id: String, user: String = "u", key: String? = nil, now: Int64 = 10) -> Challenge {
        var challenge = Challenge(id: id, tenantID: "t1", kind: .push, createdAt: now, expiresAt: now + 1000)
        challenge.userID = user
        challenge.idempotencyKey = key
        challenge.actionCode = "signIn"
        challenge.custom = ["x": .number(1)]
        challenge.deviceCodeHash = [1, 2, 3]
        return challenge
    }

    @Test(arguments: StoreKind.allCases)
    func `a push challenge is answered once and moves its action only while it waits`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.insertAuthenticator(Self.device("d1", key: 1))
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k", state: .challengeRequired, now: 1)
        _ = try await store.trackAction(action, user: { $0! }, decide: { _, _ in })
        #expect(try await store.insertChallenge(Self.pushChallenge("c1", key: "k"), maxOpenForUser: 3))
        #expect(try await store.challenge(tenantID: "t1", id: "c1") == Self.pushChallenge("c1", key: "k"))
        #expect(try await store.challenge(tenantID: "other", id: "c1") == nil)
        #expect(try await store.pendingPushChallenge(tenantID: "t1", userID: "u", authenticatorID: "d1", now: 20)?.id == "c1")
        let answered = try await store.answerChallenge(
            tenantID: "t1", id: "c1", from: [.pending], approved: true, authenticatorID: "d1", verificationMethod: .push, now: 30)
        #expect(answered?.state == .approved && answered?.answeredBy == "d1")
        #expect(try await store.action(tenantID: "t1", idempotencyKey: "k")?.state == .challengeSucceeded)
        #expect(try await store.answerChallenge(
            tenantID: "t1", id: "c1", from: [.pending], approved: false, authenticatorID: "d1", verificationMethod: .push, now: 31) == nil)
        // A second challenge for the same (already succeeded) action: the answer is undone as a whole.
        #expect(try await store.insertChallenge(Self.pushChallenge("c2", key: "k"), maxOpenForUser: 3))
        await #expect(throws: StoreError(.constraintViolation, "")) {
            _ = try await store.answerChallenge(
                tenantID: "t1", id: "c2", from: [.pending], approved: true, authenticatorID: "d1", verificationMethod: .push, now: 32)
        }
        #expect(try await store.challenge(tenantID: "t1", id: "c2")?.state == .pending)
    }

    @Test(arguments: StoreKind.allCases)
    func `a QR claim stamps the claiming authenticator's last verification, as an answer does`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var device = Self.device("d1", key: 1)
        device.verificationMethod = .device
        try await store.insertAuthenticator(device)
        #expect(try await store.authenticator(tenantID: "t1", method: .device, publicKey: device.publicKey!)?.lastVerifiedAt == nil)
        let qr = Challenge(id: "qr", tenantID: "t1", kind: .qrCode, createdAt: 10, expiresAt: 1000)
        #expect(try await store.insertChallenge(qr, maxOpenForUser: nil))
        let action = Action(tenantID: "t1", userID: "u", actionCode: "kioskSignIn", idempotencyKey: "anon", state: .challengeRequired, now: 20)
        #expect(try await store.claimChallenge(tenantID: "t1", id: "qr", authenticator: device, anonymousAction: action, now: 20) != nil)
        #expect(try await store.authenticator(tenantID: "t1", method: .device, publicKey: device.publicKey!)?.lastVerifiedAt == 20)
        // A claim that loses changes nothing.
        #expect(try await store.claimChallenge(tenantID: "t1", id: "qr", authenticator: device, anonymousAction: nil, now: 30) == nil)
        #expect(try await store.authenticator(tenantID: "t1", method: .device, publicKey: device.publicKey!)?.lastVerifiedAt == 20)
    }

    @Test(arguments: StoreKind.allCases) func `the pending cap and the sweep`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        for i in 0..<3 { #expect(try await store.insertChallenge(Self.pushChallenge("c\(i)"), maxOpenForUser: 3)) }
        #expect(try await !store.insertChallenge(Self.pushChallenge("c3"), maxOpenForUser: 3))
        #expect(try await store.insertChallenge(Self.pushChallenge("c4", user: "v"), maxOpenForUser: 3))
        // Expired ones no longer count, and the sweep deletes them.
        #expect(try await store.insertChallenge(Self.pushChallenge("c5", now: 5000), maxOpenForUser: 3))
        #expect(try await store.sweep(now: 5000, challengesBefore: 2000, eventsBefore: 0) == 4)
        #expect(try await store.challenge(tenantID: "t1", id: "c5") != nil)
    }

    @Test(arguments: StoreKind.allCases) func `the webhook outbox hands out due events and records outcomes`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        var authenticator = Self.device("d1", key: 1)
        authenticator.userID = "w"
        try await store.insertAuthenticator(authenticator)
        _ = try await store.deleteUser(tenantID: "t1", userID: "w") { a in
            (0..<3).map { WebhookEvent(id: "e\($0)", tenantID: "t1", type: "authenticator.deleted", body: "{\"a\":\"\(a.id)\"}", createdAt: Int64($0)) }
        }
        let due = try await store.dueWebhookEvents(now: 100, limit: 2)
        #expect(due.map(\.id) == ["e0", "e1"] && due[0].body == "{\"a\":\"d1\"}")
        try await store.markWebhookDelivered(id: "e0", at: 200)
        try await store.markWebhookAttemptFailed(id: "e1", attempts: 1, nextAttemptAt: 150, error: "HTTP 500", at: 101)
        try await store.markWebhookAttemptFailed(id: "e2", attempts: 4, nextAttemptAt: nil, error: "HTTP 500", at: 101)
        let retried = try await store.dueWebhookEvents(now: 1_000_000, limit: 10)
        #expect(retried.map(\.id) == ["e1"] && retried[0].attempts == 1)
        #expect(try await store.sweep(now: 0, challengesBefore: 0, eventsBefore: 1000) == 2)
    }

    @Test(arguments: StoreKind.allCases) func `the health check passes and names the database`(kind: StoreKind) async throws {
        let fixture = try await Self.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await store.healthCheck()
        #expect(store.databaseKind == (kind == .sqlite ? "sqlite" : "postgresql"))
    }
}

extension CredentialStore {
    /// Enrols `candidate` as the device credential service does: a re-enrolment takes its device fields
    /// (``Authenticator/reenrol(as:)``).
    func enrollDevice(
        _ candidate: Authenticator, enrolmentKey: String, events: @escaping @Sendable (Authenticator, Bool) -> [WebhookEvent]
    ) async throws -> DeviceCredentialEnrolment {
        try await enrollDeviceCredential(
            candidate, enrolmentKey: enrolmentKey, reenrol: { $0.reenrol(as: candidate) }, events: events)
    }
}
