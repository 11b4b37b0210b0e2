@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import Foundation
import AssentTestSupport
import Testing

/// The audit chain on each store: it verifies as written; each kind of tampering someone with write access to the
/// database but without the master key could do is detected at the right sequence; appends from two instances keep
/// one unbroken chain; retention drops old entries behind a checkpoint that verification continues from.
@Suite(.serialized) struct AuditStoreTests {
    static let masterKey = [UInt8](repeating: 7, count: 32)

    /// A store with tenant `t1` and an audit log over it, on a clock the test moves.
    static func setUp(_ kind: StoreKind) async throws -> (StoreFixture, AuditLog, ServerTestClock) {
        let fixture = try await StoreTests.fixture(kind)
        let clock = ServerTestClock(startMilliseconds: 1_000_000_000_000)
        return (fixture, AuditLog(store: fixture.store, masterKey: masterKey, clock: clock.wallClock), clock)
    }

    /// Appends `count` entries to `t1`'s chain.
    static func fill(_ audit: AuditLog, _ count: Int) async throws {
        for i in 1...count {
            try await audit.record(tenantID: "t1", .credentialEnrolled, actor: "secret-key", subject: "auth-\(i)",
                                   details: ["userId": "user-\(i)"])
        }
    }

    /// Runs `statements` on the database directly, as someone with write access to it would.
    static func tamper(_ fixture: StoreFixture, _ statements: [String]) async throws {
        let location = fixture.location
        try await offPool {
            switch fixture.kind {
            case .sqlite:
                let connection = try SQLiteConnection(path: location)
                for statement in statements { try connection.execute(statement) }
            case .postgres:
                let connection = try PostgresConnection(url: location)
                for statement in statements { try connection.execute(statement) }
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func `a chain verifies as written and lists by filters and cursor`(kind: StoreKind) async throws {
        let (fixture, audit, clock) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 3)
        clock.advance(days: 1)
        try await audit.record(tenantID: "t1", .activationBlocked, actor: "secret-key", subject: "act-1")
        try await audit.record(tenantID: "other", .tenantCreated, actor: "cli")
        try await Self.fill(audit, 2)

        let check = try await audit.verify(tenantID: "t1")
        #expect(check.verification == .intact(6))
        #expect(check.head == 6)
        #expect(try await audit.verify(tenantID: "other").verification == .intact(1))
        #expect(try await audit.verify(tenantID: "nobody").verification == .intact(0))

        let all = try await audit.entries(AuditQuery(tenantID: "t1"))
        #expect(all.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(all[0].details == ["userId": "user-1"] && all[0].subject == "auth-1")
        let blocked = try await audit.entries(AuditQuery(tenantID: "t1", kind: .activationBlocked))
        #expect(blocked.map(\.sequence) == [4])
        let recent = try await audit.entries(AuditQuery(tenantID: "t1", since: clock.nowMilliseconds))
        #expect(recent.map(\.sequence) == [4, 5, 6])
        let page = try await audit.entries(AuditQuery(tenantID: "t1", afterSequence: 2, limit: 2))
        #expect(page.map(\.sequence) == [3, 4])
        #expect(try await audit.tenants() == ["other", "t1"])
    }

    @Test(arguments: StoreKind.allCases) func `a chain lists newest first back from a cursor within a time range and by actor`(
        kind: StoreKind
    ) async throws {
        let (fixture, audit, clock) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        let start = clock.nowMilliseconds
        try await Self.fill(audit, 3)
        clock.advance(days: 1)
        try await audit.record(tenantID: "t1", .settingsChanged, actor: "admin-token:adt_1")
        clock.advance(days: 1)
        try await Self.fill(audit, 2)
        try await audit.record(tenantID: "other", .settingsChanged, actor: "admin-token:adt_1")

        func newest(_ change: (inout AuditQuery) -> Void) async throws -> [Int64] {
            var query = AuditQuery(tenantID: "t1")
            query.newestFirst = true
            change(&query)
            return try await audit.entries(query).map(\.sequence)
        }
        #expect(try await newest { _ in } == [6, 5, 4, 3, 2, 1])
        #expect(try await newest { $0.limit = 2 } == [6, 5])
        #expect(try await newest { $0.limit = 2; $0.beforeSequence = 5 } == [4, 3], "the next page starts below the cursor")
        #expect(try await newest { $0.until = start + 86_400_000 } == [4, 3, 2, 1])
        #expect(try await newest { $0.since = start + 1; $0.until = start + 86_400_000 } == [4])
        #expect(try await newest { $0.actor = "admin-token:adt_1" } == [4], "only this tenant's, only this actor's")
        #expect(try await newest { $0.kind = .credentialEnrolled; $0.beforeSequence = 5 } == [3, 2, 1])
        var oldest = AuditQuery(tenantID: "t1")
        oldest.until = start
        #expect(try await audit.entries(oldest).map(\.sequence) == [1, 2, 3], "oldest first honours the range too")
    }

    @Test(arguments: StoreKind.allCases) func `tenant creation, secret rotation and settings changes are audited with the change`(
        kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture.make(kind)
        defer { withExtendedLifetime(fixture) {} }
        let directory = TenantDirectory(store: fixture.store, clock: .system, masterKey: Self.masterKey)
        let created = try await directory.create(name: "Shop", actor: "cli")
        let rotated = try await directory.rotateSecret(tenantID: created.tenant.id, actor: "cli")
        _ = try await directory.updateSettings(tenantID: created.tenant.id, actor: "secret-key") { $0.numberMatching = true }
        _ = try await directory.updateSettings(tenantID: created.tenant.id) { $0.numberMatching = true }  // no change
        let audit = AuditLog(store: fixture.store, masterKey: Self.masterKey, clock: .system)
        let entries = try await audit.entries(AuditQuery(tenantID: created.tenant.id))
        #expect(entries.map(\.kind) == [.tenantCreated, .secretRotated, .settingsChanged])
        #expect(entries.map(\.actor) == ["cli", "cli", "secret-key"])
        #expect(entries[2].details == ["changed": "numberMatching"])
        for entry in entries {
            #expect(!entry.detailsJSON.contains(created.secretKey) && !entry.detailsJSON.contains(rotated.secretKey))
        }
        #expect(try await audit.verify(tenantID: created.tenant.id).verification.isIntact)
        // A tenant that does not exist changes nothing and records nothing.
        await #expect(throws: AssentError.self) { _ = try await directory.rotateSecret(tenantID: "missing") }
        #expect(try await audit.entries(AuditQuery(tenantID: "missing")).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func `a changed detail is detected at its sequence`(kind: StoreKind) async throws {
        let (fixture, audit, _) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 5)
        try await Self.tamper(fixture, [
            "UPDATE audit_entries SET details = '{\"userId\":\"someone-else\"}' WHERE tenant_id = 't1' AND sequence = 3",
        ])
        let verification = try await audit.verify(tenantID: "t1").verification
        #expect(verification.firstBadSequence == 3)
        #expect(verification.problem.contains("changed"))
    }

    @Test(arguments: StoreKind.allCases) func `a deleted middle entry is detected`(kind: StoreKind) async throws {
        let (fixture, audit, _) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 5)
        try await Self.tamper(fixture, ["DELETE FROM audit_entries WHERE tenant_id = 't1' AND sequence = 3"])
        let verification = try await audit.verify(tenantID: "t1").verification
        #expect(verification.firstBadSequence == 3)
        #expect(verification.problem.contains("missing"))
    }

    @Test(arguments: StoreKind.allCases) func `deleting the oldest entries without a checkpoint is detected`(kind: StoreKind) async throws {
        let (fixture, audit, _) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 5)
        try await Self.tamper(fixture, ["DELETE FROM audit_entries WHERE tenant_id = 't1' AND sequence <= 2"])
        #expect(try await audit.verify(tenantID: "t1").verification.firstBadSequence == 1)
    }

    @Test(arguments: StoreKind.allCases) func `two swapped sequences are detected`(kind: StoreKind) async throws {
        let (fixture, audit, _) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 5)
        try await Self.tamper(fixture, [
            "UPDATE audit_entries SET sequence = 1000 WHERE tenant_id = 't1' AND sequence = 2",
            "UPDATE audit_entries SET sequence = 2 WHERE tenant_id = 't1' AND sequence = 4",
            "UPDATE audit_entries SET sequence = 4 WHERE tenant_id = 't1' AND sequence = 1000",
        ])
        #expect(try await audit.verify(tenantID: "t1").verification.firstBadSequence == 2)
    }

    @Test(arguments: StoreKind.allCases) func `an entry forged without the master key is detected`(kind: StoreKind) async throws {
        let (fixture, audit, _) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 5)
        // The forger knows the scheme and the previous MAC, but not the key: they use one of their own.
        let entries = try await audit.entries(AuditQuery(tenantID: "t1"))
        var forged = entries[2]
        forged.detailsJSON = "{\"userId\":\"forged\"}"
        let wrong = AuditKey(masterKey: [UInt8](repeating: 8, count: 32))
        let mac = AuditChain.hex(wrong.mac(of: forged, previous: entries[1].mac))
        let literal = fixture.kind == .sqlite ? "X'\(mac)'" : "'\\x\(mac)'::bytea"
        try await Self.tamper(fixture, [
            "UPDATE audit_entries SET details = '{\"userId\":\"forged\"}', mac = \(literal) WHERE tenant_id = 't1' AND sequence = 3",
        ])
        #expect(try await audit.verify(tenantID: "t1").verification.firstBadSequence == 3)
        // With the right key the same forgery would have verified: the test forges exactly what the key protects.
        let right = AuditKey(masterKey: Self.masterKey)
        forged.mac = right.mac(of: forged, previous: entries[1].mac)
        #expect(right.isValid(forged, previous: entries[1].mac))
    }

    @Test(arguments: StoreKind.allCases) func `appends from two instances keep one unbroken chain`(kind: StoreKind) async throws {
        let (fixture, audit, clock) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        let second = AuditLog(store: try await fixture.another(), masterKey: Self.masterKey, clock: clock.wallClock)
        let logs = [audit, second]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<40 {
                let log = logs[i % 2]
                group.addTask { try await log.record(tenantID: "t1", .fraudReported, actor: "device", subject: "u\(i)") }
            }
            try await group.waitForAll()
        }
        let check = try await audit.verify(tenantID: "t1")
        #expect(check.verification == .intact(40))
        #expect(check.head == 40)
        let subjects = Set(try await audit.entries(AuditQuery(tenantID: "t1", limit: 100)).map(\.subject))
        #expect(subjects.count == 40)
    }

    @Test(arguments: StoreKind.allCases) func `retention drops old entries behind a checkpoint and verification continues`(
        kind: StoreKind
    ) async throws {
        let (fixture, audit, clock) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 3)
        clock.advance(days: 40)
        try await Self.fill(audit, 2)
        clock.advance(days: 1)

        #expect(try await audit.prune(tenantID: "t1", olderThanDays: 30, actor: "cli") == 3)
        let kept = try await audit.entries(AuditQuery(tenantID: "t1"))
        #expect(kept.map(\.sequence) == [4, 5, 6])
        #expect(kept.last?.kind == .checkpoint)
        #expect(kept.last?.details["droppedThrough"] == "3")
        #expect(try await audit.verify(tenantID: "t1").verification == .intact(3))
        #expect(try await audit.prune(tenantID: "t1", olderThanDays: 30, actor: "cli") == 0)

        // More appends, then a second retention that drops the first checkpoint too.
        try await Self.fill(audit, 1)
        clock.advance(days: 400)
        #expect(try await audit.prune(tenantID: "t1", olderThanDays: 30, actor: "cli") == 4)
        #expect(try await audit.entries(AuditQuery(tenantID: "t1")).map(\.sequence) == [8])
        #expect(try await audit.verify(tenantID: "t1").verification == .intact(1))
        try await Self.fill(audit, 2)
        #expect(try await audit.verify(tenantID: "t1").verification == .intact(3))

        // Deleting the first kept entry is not covered by the checkpoint.
        try await Self.tamper(fixture, ["DELETE FROM audit_entries WHERE tenant_id = 't1' AND sequence = 8"])
        #expect(try await audit.verify(tenantID: "t1").verification.firstBadSequence != nil)
    }

    @Test(arguments: StoreKind.allCases) func `a broken chain is not pruned`(kind: StoreKind) async throws {
        let (fixture, audit, clock) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await Self.fill(audit, 4)
        try await Self.tamper(fixture, ["UPDATE audit_entries SET actor = 'nobody' WHERE tenant_id = 't1' AND sequence = 2"])
        clock.advance(days: 100)
        await #expect(throws: AuditChainBroken.self) {
            _ = try await audit.prune(tenantID: "t1", olderThanDays: 30, actor: "cli")
        }
        #expect(try await audit.entries(AuditQuery(tenantID: "t1")).count == 4)
    }

    @Test func `a forged checkpoint does not let old entries be dropped unseen`() async throws {
        let key = AuditKey(masterKey: Self.masterKey)
        var entries: [AuditEntry] = []
        var previous = AuditKey.genesis
        for i in 1...4 {
            let entry = key.seal(AuditEvent(tenantID: "t", at: Int64(i), kind: .credentialRemoved, actor: "cli"),
                                 sequence: Int64(i), previous: previous)
            entries.append(entry)
            previous = entry.mac
        }
        #expect(AuditChain.verify(entries, tenantID: "t", key: key) == .intact(4))
        // Someone drops 1–2 and appends their own checkpoint, MAC'd with a key they made up.
        let forger = AuditKey(masterKey: [UInt8](repeating: 9, count: 32))
        let checkpoint = forger.seal(
            AuditEvent(tenantID: "t", at: 5, kind: .checkpoint, actor: "cli",
                       details: ["droppedThrough": "2", "droppedMac": AuditChain.hex(entries[1].mac)]),
            sequence: 5, previous: entries[3].mac)
        let tampered = Array(entries.dropFirst(2)) + [checkpoint]
        #expect(AuditChain.verify(tampered, tenantID: "t", key: key).firstBadSequence == 5)
        // An entry of another tenant's chain moved into this one is refused too.
        #expect(AuditChain.verify(entries, tenantID: "u", key: key).firstBadSequence == 1)
    }

    @Test(arguments: StoreKind.allCases) func `rate-limit trips are summarised as one entry per tenant per flush`(kind: StoreKind) async throws {
        let (fixture, audit, _) = try await Self.setUp(kind)
        defer { withExtendedLifetime(fixture) {} }
        let trips = RateLimitTrips(audit: audit, logger: Logger(minimumLevel: .error, sink: { _ in }))
        #expect(await trips.flush() == 0)
        for _ in 0..<500 { trips.note(tenantID: "t1", rule: .startUser) }
        for _ in 0..<3 { trips.note(tenantID: "t1", rule: .claimKey) }
        trips.note(tenantID: "t2", rule: .anonymousQRStartTenant)
        #expect(await trips.flush() == 2)
        let entries = try await audit.entries(AuditQuery(tenantID: "t1"))
        #expect(entries.map(\.kind) == [.rateLimited])
        #expect(entries.first?.details == ["start-user": "500", "claim-key": "3", "total": "503"])
        #expect(try await audit.entries(AuditQuery(tenantID: "t2")).first?.details["anonymous-qr-start-tenant"] == "1")
        // The counts were forgotten: the next flush writes nothing.
        #expect(await trips.flush() == 0)
        #expect(try await audit.verify(tenantID: "t1").verification == .intact(1))
    }
}
