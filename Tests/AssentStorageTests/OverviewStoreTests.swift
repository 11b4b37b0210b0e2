@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentSync
import AssentTestSupport
import AssentWire
import Testing

/// The admin console overview's counters on both stores (``OverviewStore``): per-minute batches add up across
/// instances and are taken once, expiries are added once under the minute they happened, totals follow every insert,
/// delete and cascade (and seeding) without counting a table, sweeping keeps two days, and the reader adds exactly
/// what its instance has not flushed. Serialized like the other PostgreSQL suites.
@Suite(.serialized) struct OverviewStoreTests {
    static let now: Int64 = 1_800_000_000_000
    static let minute = ChallengeMinute.start(of: now)

    static func row(_ tenant: String = "t1", minute: Int64 = minute, kind: Challenge.Kind = .push,
                    started: Int = 0, approved: Int = 0, denied: Int = 0, expired: Int = 0) -> ChallengeMinute {
        ChallengeMinute(
            tenantID: tenant, minute: minute, kind: kind,
            counts: ChallengeCounts(started: started, approved: approved, denied: denied, expired: expired))
    }

    static func sum(_ rows: [ChallengeMinute], kind: Challenge.Kind? = nil) -> ChallengeCounts {
        rows.filter { kind == nil || $0.kind == kind }.reduce(ChallengeCounts()) { $0 + $1.counts }
    }

    @Test(arguments: StoreKind.allCases)
    func `batches from two instances add up per minute and kind, and a batch sent again adds nothing`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let other = try await fixture.another()
        let first = ChallengeMinuteBatch(instance: "a", sequence: 1, createdAt: Self.now, rows: [
            Self.row(started: 3, approved: 1), Self.row(kind: .qrCode, started: 2, denied: 1),
            Self.row(minute: Self.minute - 60_000, started: 1), Self.row("t2", started: 9),
        ])
        let second = ChallengeMinuteBatch(instance: "b", sequence: 1, createdAt: Self.now, rows: [
            Self.row(started: 2, approved: 2, denied: 1),
        ])
        #expect(try await store.addChallengeMinutes(first))
        #expect(try await other.addChallengeMinutes(second))
        // The same batch again (an add whose acknowledgement was lost), from either connection: nothing changes.
        #expect(try await other.addChallengeMinutes(first) == false)
        #expect(try await store.addChallengeMinutes(second) == false)

        let read = try await store.challengeMinutes(tenantID: "t1", from: Self.minute - 60_000, instance: "a")
        #expect(read.storedThrough == 1)
        #expect(Self.sum(read.rows.filter { $0.minute == Self.minute }, kind: .push)
            == ChallengeCounts(started: 5, approved: 3, denied: 1, expired: 0))
        #expect(Self.sum(read.rows, kind: .qrCode) == ChallengeCounts(started: 2, approved: 0, denied: 1, expired: 0))
        #expect(Self.sum(read.rows.filter { $0.minute < Self.minute }).started == 1)
        // Minutes before `from` and other tenants are not read.
        #expect(try await store.challengeMinutes(tenantID: "t1", from: Self.minute, instance: "a").rows.count == 2)
        #expect(Self.sum(try await other.challengeMinutes(tenantID: "t2", from: 0, instance: "b").rows).started == 9)
        #expect(try await store.challengeMinutes(tenantID: "t1", from: 0, instance: "nobody").storedThrough == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func `expired challenges go to their tenant's minute once, whichever instance counts them`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let other = try await fixture.another()
        try await store.insertTenant(StoreTests.tenant(id: "t2", secret: 2))
        #expect(try await store.countExpiredChallenges(through: Self.minute).isEmpty)  // sets the watermark
        for (index, expiresAt) in [Self.minute + 1_000, Self.minute + 2_000, Self.minute + 61_000].enumerated() {
            var challenge = Challenge(
                id: "c\(index)", tenantID: "t1", kind: .push, createdAt: Self.minute, expiresAt: expiresAt)
            challenge.userID = "u"
            #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        }
        let anonymous = Challenge(id: "q", tenantID: "t2", kind: .qrCode, createdAt: Self.minute, expiresAt: Self.minute + 5_000)
        #expect(try await store.insertChallenge(anonymous, maxOpenForUser: nil))

        async let counted = store.countExpiredChallenges(through: Self.minute + 120_000)
        async let counted2 = other.countExpiredChallenges(through: Self.minute + 120_000)
        let all = [try await counted, try await counted2]
        #expect(all.reduce(0) { $0 + ($1[.push] ?? 0) } == 3)

        let t1 = try await store.challengeMinutes(tenantID: "t1", from: Self.minute, instance: "a").rows
        #expect(t1.first { $0.minute == Self.minute }?.counts == ChallengeCounts(started: 0, approved: 0, denied: 0, expired: 2))
        #expect(t1.first { $0.minute == Self.minute + 60_000 }?.counts.expired == 1)
        let t2 = try await other.challengeMinutes(tenantID: "t2", from: Self.minute, instance: "a").rows
        #expect(t2.map(\.kind) == [.qrCode])
        #expect(Self.sum(t2).expired == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func `totals follow users, authenticators and activations as they come and go, cascades included`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await store.overviewTotals(tenantID: "t1").isEmpty)
        try await store.saveUser(User(tenantID: "t1", userID: "a", now: 1))
        try await store.saveUser(User(tenantID: "t1", userID: "a", now: 2))  // an update is no new user
        try await store.insertAuthenticator(StoreTests.device("d1", user: "u", key: 1))  // creates user u
        try await store.insertAuthenticator(StoreTests.device("d2", user: "u", key: 2))
        var qr = StoreTests.device("d3", user: "a", key: 3)
        qr.verificationMethod = .device
        try await store.insertAuthenticator(qr)
        try await ActivationStoreTests.insertActivation(store, ActivationStoreTests.activation("p1", user: "u"))
        try await StoreTests.enrolmentAction(store, key: "enrol-z", user: "z")  // a track creates user z
        try await StoreTests.enrolmentAction(store, key: "enrol-z2", user: "z")  // and finds it the second time
        var totals = OverviewTotals(named: try await store.overviewTotals(tenantID: "t1"))
        #expect(totals.users == 3)
        #expect(totals.authenticators == ["PUSH": 2, "DEVICE": 1])
        #expect(totals.activations == ["PENDING_COMMIT": 1])

        // Folded, the totals read the same (PostgreSQL appends change rows to fold; SQLite's triggers add to the
        // totals rows at once, leaving nothing to fold); a status change moves an activation between statuses.
        let folds = kind == .postgres
        #expect(try await store.foldOverviewTotals(limit: 2) == (folds ? 2 : 0))
        #expect(OverviewTotals(named: try await store.overviewTotals(tenantID: "t1")) == totals)
        _ = try await store.updateActivation(id: "p1") { $0.status = .active }
        _ = try await store.updateActivation(id: "p1") { $0.failedAttempts = 1 }  // no status change, no count
        #expect(try await store.foldOverviewTotals(limit: 1000) > 0 || !folds)
        #expect(try await store.foldOverviewTotals(limit: 1000) == 0)
        totals = OverviewTotals(named: try await store.overviewTotals(tenantID: "t1"))
        #expect(totals.activations == ["ACTIVE": 1])

        // Deleting a user takes its authenticators and activations with it (the foreign keys' cascade).
        #expect(try await store.deleteAuthenticator(tenantID: "t1", userID: "a", id: "d3", events: { _ in [] }))
        #expect(try await store.deleteUser(tenantID: "t1", userID: "u", events: { _ in [] }))
        totals = OverviewTotals(named: try await store.overviewTotals(tenantID: "t1"))
        #expect(totals.users == 2)
        #expect(totals.authenticatorCount == 0)
        #expect(totals.liveActivationCount == 0)
        #expect(try await store.foldOverviewTotals(limit: 1000) > 0 || !folds)
        #expect(OverviewTotals(named: try await store.overviewTotals(tenantID: "t1")) == totals)
        #expect(try await store.overviewTotals(tenantID: "t2").isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func `the bulk seeder's users, authenticators and activations are in the totals`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let counts = try await store.insertSeedBatch(try SeedStoreTests.seeder().batch(0..<30))
        _ = try await store.foldOverviewTotals(limit: 7)
        let totals = OverviewTotals(named: try await store.overviewTotals(tenantID: "t1"))
        #expect(totals.users == counts.users)
        #expect(totals.authenticatorCount == counts.authenticators)
        #expect(totals.activations.values.reduce(0, +) == counts.activations)
    }

    @Test(arguments: StoreKind.allCases)
    func `sweeping deletes per-minute counts and batch records older than two days, and nothing newer`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let old = Self.now - 2 * 86_400_000 - 60_000
        #expect(try await store.addChallengeMinutes(ChallengeMinuteBatch(
            instance: "a", sequence: 1, createdAt: old, rows: [Self.row(minute: ChallengeMinute.start(of: old), started: 1)])))
        #expect(try await store.addChallengeMinutes(ChallengeMinuteBatch(
            instance: "a", sequence: 2, createdAt: Self.now, rows: [Self.row(started: 1)])))
        #expect(try await store.sweep(now: Self.now, challengesBefore: 0, eventsBefore: 0) == 2)
        let read = try await store.challengeMinutes(tenantID: "t1", from: 0, instance: "a")
        #expect(read.rows.map(\.minute) == [Self.minute])
        #expect(read.storedThrough == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func `the reader adds what its instance has not flushed, exactly once, before, during and after a flush`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let clock = WallClock { Self.now }
        let tally = OverviewTally(clock: clock, instance: "here")
        let reader = OverviewReader(store: store, tally: tally, clock: clock)
        tally.record(tenantID: "t1", kind: .push, outcome: .started, count: 2)
        tally.record(tenantID: "t1", kind: .push, outcome: .approved)
        tally.record(tenantID: "t2", kind: .push, outcome: .started)
        let expected = ChallengeCounts(started: 2, approved: 1, denied: 0, expired: 0)
        #expect(try await reader.overview(tenantID: "t1").lastHour == expected)

        // Taken for a flush but not added yet; then added but not yet marked flushed; then done.
        let batch = try #require(tally.nextBatch())
        tally.record(tenantID: "t1", kind: .qrCode, outcome: .denied)
        let more = ChallengeCounts(started: 2, approved: 1, denied: 1, expired: 0)
        #expect(try await reader.overview(tenantID: "t1").lastHour == more)
        #expect(try await store.addChallengeMinutes(batch))
        #expect(try await reader.overview(tenantID: "t1").lastHour == more)
        tally.flushed(batch)
        #expect(try await reader.overview(tenantID: "t1").lastHour == more)
        let next = try #require(tally.nextBatch())
        #expect(next.sequence == batch.sequence + 1)
        #expect(try await store.addChallengeMinutes(next))
        #expect(try await reader.overview(tenantID: "t1").lastHour == more)
        tally.flushed(next)
        let overview = try await reader.overview(tenantID: "t1")
        #expect(overview.lastHour == more)
        #expect(overview.minutes.last == more)
        #expect(overview.lastHourByKind[.qrCode]?.denied == 1)
        #expect(overview.firstMinute == Self.minute - 59 * 60_000)
        #expect(tally.nextBatch() == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func `two instances counting and flushing at once add up to every count, none lost or doubled`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let stores = [fixture.store, try await fixture.another()]
        let clock = WallClock.system
        let tallies = (0..<2).map { _ in OverviewTally(clock: clock) }
        let flushers = (0..<2).map {
            OverviewFlusher(store: stores[$0], tally: tallies[$0], logger: Logger(minimumLevel: .error, sink: { _ in }), interval: .milliseconds(5))
        }
        for flusher in flushers { flusher.start() }
        let perTask = 400
        await withTaskGroup(of: Void.self) { group in
            for instance in 0..<2 {
                for worker in 0..<4 {
                    group.addTask {
                        for index in 0..<perTask {
                            // Half-way, one worker of each instance waits for its flusher's first batch, so flushes
                            // happen while counting goes on however busy the machine is (counting once outran two
                            // flushes under load), and counts come after it for a later batch.
                            if worker == 0, index == perTask / 2 {
                                let limit = ContinuousClock.now + .seconds(120)
                                while ContinuousClock.now < limit, ((try? await stores[instance].challengeMinutes(
                                    tenantID: "t1", from: 0, instance: tallies[instance].instance).storedThrough) ?? 0) < 1 {
                                    try? await Task.sleep(for: .milliseconds(5))
                                }
                            }
                            let outcome = DomainMetrics.ChallengeOutcome.allCases[(index + worker) % 3]
                            tallies[instance].record(tenantID: "t1", kind: index % 2 == 0 ? .push : .qrCode, outcome: outcome)
                            if index % 20 == 0 { try? await Task.sleep(for: .milliseconds(10)) }
                        }
                    }
                }
            }
            // Readers of both instances during the counting never see more than was counted.
            for instance in 0..<2 {
                group.addTask {
                    let reader = OverviewReader(store: stores[instance], tally: tallies[instance], clock: clock)
                    for _ in 0..<20 {
                        let seen = (try? await reader.overview(tenantID: "t1").lastHour) ?? ChallengeCounts()
                        #expect(seen.started + seen.approved + seen.denied <= 2 * 4 * perTask)
                    }
                }
            }
        }
        for flusher in flushers { await flusher.stop() }  // flushes what is left
        // Both flushed while counting went on (the half-way wait saw a first batch), and again after: several batches.
        for instance in 0..<2 {
            let batches = try await stores[0].challengeMinutes(tenantID: "t1", from: 0, instance: tallies[instance].instance)
            #expect(batches.storedThrough > 1)
        }
        let total = 2 * 4 * perTask
        let stored = try await stores[1].challengeMinutes(tenantID: "t1", from: 0, instance: "none").rows
        let sum = Self.sum(stored)
        #expect(sum.started + sum.approved + sum.denied == total)
        var expected = ChallengeCounts()
        for worker in 0..<4 {
            for index in 0..<perTask { expected[DomainMetrics.ChallengeOutcome.allCases[(index + worker) % 3]] += 2 }
        }
        #expect(sum == expected)
        for instance in 0..<2 {
            let reader = OverviewReader(store: stores[instance], tally: tallies[instance], clock: clock)
            let seen = try await reader.overview(tenantID: "t1").lastHour
            #expect(seen == sum)
        }
    }
    @Test func `schema step 14 counts the totals of a database made before it, once`() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("before.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try SQLiteMigrations.apply(to: connection, steps: SQLiteMigrations.steps.filter { $0.version < 14 })
            try connection.execute("""
                INSERT INTO tenants (id, name, secret_hash, key_version, secret_version, settings, created_at)
                  VALUES ('t1', 'T', x'01', 1, 1, '{}', 1);
                INSERT INTO users (tenant_id, user_id, created_at, updated_at) VALUES ('t1', 'a', 1, 1), ('t1', 'b', 1, 1);
                INSERT INTO authenticators (id, tenant_id, user_id, verification_method, created_at)
                  VALUES ('d1', 't1', 'a', 'PUSH', 1), ('d2', 't1', 'b', 'PUSH', 1), ('d3', 't1', 'b', 'DEVICE', 1);
                """)
        }
        let store = try SQLiteStore(path: path)
        var totals = OverviewTotals(named: try await store.overviewTotals(tenantID: "t1"))
        #expect(totals.users == 2)
        #expect(totals.authenticators == ["PUSH": 2, "DEVICE": 1])
        // From then on the triggers keep them.
        #expect(try await store.deleteUser(tenantID: "t1", userID: "b", events: { _ in [] }))
        totals = OverviewTotals(named: try await store.overviewTotals(tenantID: "t1"))
        #expect(totals.users == 1)
        #expect(totals.authenticators == ["PUSH": 1])
        await store.close()
    }
}
