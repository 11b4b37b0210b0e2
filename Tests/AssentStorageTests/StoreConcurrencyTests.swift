@testable import AssentServerCore
@testable import AssentStorage
import AssentLog
import AssentWire
import Foundation
import AssentSync
import Testing

/// Races that must have exactly one winner, run across **two store instances on one database** (two `assentd`
/// processes' worth: separate connections, pools and caches), on each kind of store.
@Suite(.serialized) struct StoreConcurrencyTests {
    /// Runs `body(instance, i)` for `count` concurrent callers alternating between the two stores; returns how many
    /// returned true.
    static func race(
        _ stores: [any ServerStore], count: Int, _ body: @escaping @Sendable (any ServerStore, Int) async throws -> Bool
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<count {
                let store = stores[i % stores.count]
                group.addTask { try await body(store, i) }
            }
            var winners = 0
            for try await won in group where won { winners += 1 }
            return winners
        }
    }

    static func instances(_ kind: StoreKind) async throws -> (StoreFixture, [any ServerStore]) {
        let fixture = try await StoreTests.fixture(kind)
        return (fixture, [fixture.store, try await fixture.another()])
    }

    @Test(arguments: StoreKind.allCases) func `twenty devices race for one QR claim and exactly one wins`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        for i in 0..<20 { try await stores[0].insertAuthenticator(StoreTests.device("d\(i)", user: "u\(i)", key: UInt8(i))) }
        for round in 0..<3 {
            let challenge = Challenge(id: "qr\(round)", tenantID: "t1", kind: .qrCode, createdAt: 1, expiresAt: 10_000)
            #expect(try await stores[1].insertChallenge(challenge, maxOpenForUser: nil))
            let winners = try await Self.race(stores, count: 20) { store, i in
                let device = StoreTests.device("d\(i)", user: "u\(i)", key: UInt8(i))
                let action = Action(tenantID: "t1", userID: device.userID, actionCode: "signIn",
                                    idempotencyKey: "qr\(round)-\(i)", state: .challengeRequired, now: 2)
                return try await store.claimChallenge(
                    tenantID: "t1", id: "qr\(round)", authenticator: device, anonymousAction: action, now: 2) != nil
            }
            #expect(winners == 1)
            let claimed = try #require(try await stores[0].challenge(tenantID: "t1", id: "qr\(round)"))
            #expect(claimed.state == .claimed)
            // Only the winner's action exists.
            let key = try #require(claimed.idempotencyKey)
            #expect(try await stores[1].action(tenantID: "t1", idempotencyKey: key)?.userID == claimed.userID)
        }
    }

    @Test(arguments: StoreKind.allCases) func `a single-use token validates once across instances`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "once",
                            state: .challengeSucceeded, now: 1)
        _ = try await stores[0].trackAction(action, user: { _ in User(tenantID: "t1", userID: "u", now: 1) }, decide: { _, _ in })
        #expect(try await Self.race(stores, count: 32) { store, _ in
            try await store.markActionValidated(tenantID: "t1", idempotencyKey: "once", at: 5)
        } == 1)
    }

    @Test(arguments: StoreKind.allCases) func `a nonce is spent once across instances`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await stores[0].insertAuthenticator(StoreTests.device("d1", key: 1))
        #expect(try await Self.race(stores, count: 32) { store, _ in
            try await store.spendNonce(StoreTests.spentNonce("n"))
        } == 1)
    }

    @Test(arguments: StoreKind.allCases) func `approve and deny race: one answer, and the action follows it`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await stores[0].insertAuthenticator(StoreTests.device("d1", key: 1))
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "k", state: .challengeRequired, now: 1)
        _ = try await stores[0].trackAction(action, user: { $0! }, decide: { _, _ in })
        #expect(try await stores[0].insertChallenge(StoreTests.pushChallenge("c", key: "k"), maxOpenForUser: nil))
        let outcomes = AssentLock<[Bool]>([])
        #expect(try await Self.race(stores, count: 16) { store, i in
            let answered = try await store.answerChallenge(
                tenantID: "t1", id: "c", from: [.pending], approved: i % 2 == 0, authenticatorID: "d1",
                verificationMethod: .push, now: 20)
            if let answered { outcomes.withLock { $0.append(answered.state == .approved) } }
            return answered != nil
        } == 1)
        guard let approved = outcomes.withLock({ $0.first }) else {
            Issue.record("no answer won")
            return
        }
        #expect(try await stores[1].action(tenantID: "t1", idempotencyKey: "k")?.state
                == (approved ? .challengeSucceeded : .challengeFailed))
    }

    @Test(arguments: StoreKind.allCases) func `concurrent starts cannot pass the pending cap across instances`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await Self.race(stores, count: 20) { store, i in
            try await store.insertChallenge(StoreTests.pushChallenge("cap\(i)"), maxOpenForUser: 3)
        } == 3)
    }

    @Test(arguments: StoreKind.allCases) func `an enrolment token enrols one key across instances`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await StoreTests.enrolmentAction(stores[0], key: "enrol")
        #expect(try await Self.race(stores, count: 10) { store, i in
            do {
                _ = try await store.enrollDevice(StoreTests.device("d\(i)", key: UInt8(i)), enrolmentKey: "enrol") { _, _ in [] }
                return true
            } catch is EnrolmentTokenUsed {
                return false
            }
        } == 1)
        #expect(try await stores[1].authenticators(tenantID: "t1", userID: "u").count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func `push keys, QR keys and activations enrolled with one token at once across instances: exactly one succeeds`(
        kind: StoreKind
    ) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        for round in 0..<3 {
            try await StoreTests.enrolmentAction(stores[0], key: "enrol-\(round)")
            #expect(try await Self.race(stores, count: 9) { store, i in
                do {
                    switch i % 3 {
                    case 0:
                        var activation = ActivationStoreTests.activation("pa-\(round)-\(i)", enrolmentKey: "enrol-\(round)")
                        activation.status = .active
                        try await store.insertActivation(activation)
                    default:
                        var device = StoreTests.device("d-\(round)-\(i)", key: UInt8(round * 10 + i))
                        device.verificationMethod = i % 3 == 1 ? .push : .device
                        _ = try await store.enrollDevice(device, enrolmentKey: "enrol-\(round)") { _, _ in [] }
                    }
                    return true
                } catch is EnrolmentTokenUsed {
                    return false
                }
            } == 1)
        }
        let credentials = try await stores[1].authenticators(tenantID: "t1", userID: "u").count
            + stores[1].activations(tenantID: "t1", userID: "u").count
        #expect(credentials == 3, "one credential per token")
    }

    @Test(arguments: StoreKind.allCases) func `the same key enrolled through two tokens at once ends as one credential`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        for i in 0..<8 { try await StoreTests.enrolmentAction(stores[0], key: "enrol-\(i)") }
        let created = try await Self.race(stores, count: 8) { store, i in
            try await store.enrollDevice(StoreTests.device("d\(i)", key: 7), enrolmentKey: "enrol-\(i)") { _, _ in [] }.created
        }
        #expect(created == 1)
        #expect(try await stores[1].authenticators(tenantID: "t1", userID: "u").count == 1)
    }

    @Test(arguments: StoreKind.allCases) func `concurrent tracks with one idempotency key create one action`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        let action = Action(tenantID: "t1", userID: "u", actionCode: "signIn", idempotencyKey: "same", state: .challengeRequired, now: 1)
        #expect(try await Self.race(stores, count: 16) { store, _ in
            try await store.trackAction(action, user: { $0 ?? User(tenantID: "t1", userID: "u", now: 1) }, decide: { _, _ in }).created
        } == 1)
    }

    @Test(arguments: StoreKind.allCases) func `two instances draining the webhook outbox claim each event once`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await stores[0].insertAuthenticator(StoreTests.device("d1", user: "w", key: 1))
        _ = try await stores[0].deleteUser(tenantID: "t1", userID: "w") { _ in
            (0..<200).map { WebhookEvent(id: "e\($0)", tenantID: "t1", type: "authenticator.deleted", body: "{}", createdAt: Int64($0)) }
        }
        let claimed = AssentLock<[String]>([])
        _ = try await Self.race(stores, count: 8) { store, _ in
            while true {
                let due = try await store.dueWebhookEvents(now: 1000, limit: 7)
                if due.isEmpty { return true }
                for event in due { try await store.markWebhookDelivered(id: event.id, at: 1001) }
                claimed.withLock { $0 += due.map(\.id) }
            }
        }
        let ids = claimed.withLock { $0 }
        #expect(ids.count == 200)
        #expect(Set(ids).count == 200)
    }

    @Test(arguments: StoreKind.allCases)
    func `sixteen verify-and-advance calls for one counter value across two instances: exactly one succeeds`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        try await ActivationStoreTests.insertActivation(stores[0], ActivationStoreTests.activation("pa"))
        _ = try await stores[1].updateActivation(id: "pa") { $0.status = .active }
        for round in 0..<3 {
            // Every caller presents a signature made at counter value `signed`; as the look-ahead does, it matches
            // while the stored counter is at or below it (within the window), and a match moves the counter past it.
            let signed = Int64(round * 5 + 3)
            let runs = AssentLock(0)
            let accepted = try await Self.race(stores, count: 16) { store, i in
                try await store.updateActivation(id: "pa") { record -> Bool in
                    runs.withLock { $0 += 1 }
                    guard record.status == .active, signed >= record.counter, signed < record.counter + 20 else {
                        return false
                    }
                    record.counter = signed + 1
                    record.counterData = Array(repeating: UInt8(signed + 1), count: 16)
                    record.failedAttempts = 0
                    record.lastUsedAt = Int64(100 + i)
                    return true
                } ?? false
            }
            #expect(accepted == 1, "round \(round): \(accepted) calls consumed counter \(signed)")
            #expect(runs.withLock { $0 } >= 16)
            let stored = try #require(try await stores[round % 2].activation(id: "pa"))
            #expect(stored.counter == signed + 1 && stored.counterData == Array(repeating: UInt8(signed + 1), count: 16))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func `push delivery claims from two instances never hand out the same delivery`(kind: StoreKind) async throws {
        let (fixture, stores) = try await Self.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        var device = StoreTests.device("d1", key: 1)
        device.devicePlatform = "IOS"
        try await stores[0].insertAuthenticator(device)
        for c in 0..<30 {
            var challenge = Challenge(id: "pc\(c)", tenantID: "t1", kind: .push, createdAt: 10, expiresAt: 1_000_000)
            challenge.userID = "u"
            let deliveries = (0..<4).map { n in
                PushDelivery(id: "pd\(c)-\(n)", tenantID: "t1", challengeID: challenge.id, authenticatorID: "d1",
                             provider: n % 2 == 0 ? .apns : .fcm, createdAt: 10, expiresAt: 1_000_000)
            }
            #expect(try await stores[c % 2].insertPushChallenge(challenge, maxOpenForUser: nil, deliveries: deliveries, timeline: []))
        }
        let claimed = AssentLock<[String]>([])
        _ = try await Self.race(stores, count: 8) { store, i in
            while true {
                let due = try await store.claimDuePushDeliveries(now: 1000, leaseUntil: 500_000, limit: 3)
                if due.isEmpty { return true }
                claimed.withLock { $0 += due.map(\.id) }
                for var delivery in due {
                    #expect(delivery.pushToken == "push-d1" && delivery.claimedUntil == 500_000)
                    delivery.attempts += 1
                    delivery.state = .delivered
                    try await store.recordPushAttempt(
                        delivery, sentToken: delivery.pushToken, staleCode: nil,
                        entry: ChallengeTimelineEntry(
                            event: "push.delivered", tenantID: "t1", challengeID: delivery.challengeID, at: 1001,
                            authenticatorID: "d1", provider: delivery.provider.rawValue, attempt: 1, status: 200,
                            detail: "claimer \(i)"))
                }
            }
        }
        let ids = claimed.withLock { $0 }
        #expect(ids.count == 120)
        #expect(Set(ids).count == 120, "\(ids.count - Set(ids).count) deliveries were handed out twice")
        // Every delivery was sent once: one delivered entry each on its challenge's timeline.
        for c in 0..<30 {
            let timeline = try await stores[c % 2].challengeTimeline(tenantID: "t1", challengeID: "pc\(c)")
            #expect(timeline.count == 4 && timeline.allSatisfy { $0.event == "push.delivered" })
            #expect(try await stores[(c + 1) % 2].pushDeliveries(tenantID: "t1", challengeID: "pc\(c)").allSatisfy { $0.state == .delivered })
        }
    }
}
