@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import AssentWire
import Testing

/// A track given as data (``ActionStore/trackAction(_:changes:states:)``: one statement on PostgreSQL, the closures'
/// path on SQLite): the user record changes by ``UserChanges``' rule, the state follows the user's authenticators,
/// an existing key returns its action untouched, another user's key is refused, and racing tracks create one action.
@Suite(.serialized) struct TrackStoreTests {
    static let states = TrackStates(enrolled: .challengeRequired, notEnrolled: .allow)

    static func action(_ key: String, user: String = "u", code: String = "signIn", now: Int64 = 10) -> Action {
        var action = Action(
            tenantID: "t1", userID: user, actionCode: code, idempotencyKey: key, state: .challengeRequired, now: now)
        action.ipAddress = "203.0.113.7"
        action.custom = ["x": .number(1)]
        return action
    }

    static func changes(email: String? = nil, phone: String? = nil, username: String? = nil, now: Int64 = 10) -> UserChanges {
        UserChanges(email: email, phoneNumber: phone, username: username, locale: nil, now: now)
    }

    @Test(arguments: StoreKind.allCases)
    func `a track given as data records the user and picks the state by the user's authenticators`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let first = try await store.trackAction(
            Self.action("k1"), changes: Self.changes(email: "a@example.com", username: "ann"), states: Self.states)
        #expect(first.created && first.authenticators.isEmpty)
        #expect(first.action.state == .allow, "no authenticator: the not-enrolled state")
        var expected = Self.action("k1")
        expected.state = .allow
        #expect(first.action == expected)
        #expect(try await store.action(tenantID: "t1", idempotencyKey: "k1") == expected)
        var user = try #require(try await store.user(tenantID: "t1", userID: "u"))
        #expect(user.email == "a@example.com" && !user.emailVerified && user.username == "ann")
        #expect(user.createdAt == 10 && user.updatedAt == 10)

        // The backend vouches for the address; the same address again keeps it verified, a new one does not.
        user.emailVerified = true
        user.phoneNumber = "+100"
        user.phoneNumberVerified = true
        user.displayName = "Ann"
        try await store.saveUser(user)
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        try await store.insertAuthenticator(StoreTests.device("d2", key: 2))
        let second = try await store.trackAction(
            Self.action("k2", now: 20), changes: Self.changes(email: "a@example.com", now: 20), states: Self.states)
        #expect(second.created && second.action.state == .challengeRequired, "enrolled: the enrolled state")
        #expect(second.authenticators.map(\.id) == ["d1", "d2"])
        #expect(second.authenticators == (try await store.authenticators(tenantID: "t1", userID: "u")))
        user = try #require(try await store.user(tenantID: "t1", userID: "u"))
        #expect(user.emailVerified && user.phoneNumberVerified && user.username == "ann" && user.displayName == "Ann")
        #expect(user.createdAt == 10 && user.updatedAt == 20)
        _ = try await store.trackAction(
            Self.action("k3", now: 30), changes: Self.changes(email: "b@example.com", phone: "+100", now: 30),
            states: Self.states)
        user = try #require(try await store.user(tenantID: "t1", userID: "u"))
        #expect(user.email == "b@example.com" && !user.emailVerified, "a new address is not verified")
        #expect(user.phoneNumber == "+100" && user.phoneNumberVerified, "the same number stays verified")
        #expect(user == Self.changes(email: "b@example.com", phone: "+100", now: 30)
            .applied(to: { var u = user; u.email = "a@example.com"; u.emailVerified = true; u.updatedAt = 20; return u }(),
                     tenantID: "t1", userID: "u"), "the same rule as UserChanges.applied")
    }

    @Test(arguments: StoreKind.allCases)
    func `a track given as data with a known key returns that action and writes nothing`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        let first = try await store.trackAction(Self.action("k1"), changes: Self.changes(), states: Self.states)
        try await store.insertAuthenticator(StoreTests.device("d1", key: 1))
        let again = try await store.trackAction(
            Self.action("k1", now: 50), changes: Self.changes(email: "new@example.com", now: 50), states: Self.states)
        #expect(!again.created && again.action == first.action, "the stored action, unchanged")
        #expect(again.authenticators.map(\.id) == ["d1"])
        let user = try #require(try await store.user(tenantID: "t1", userID: "u"))
        #expect(user.email == nil && user.updatedAt == 10, "nothing written")
        await #expect(throws: StoreError.self) {
            _ = try await store.trackAction(
                Self.action("k1", user: "mallory"), changes: Self.changes(email: "m@example.com"), states: Self.states)
        }
        await #expect(throws: StoreError.self) {
            _ = try await store.trackAction(Self.action("k1", code: "transfer"), changes: Self.changes(), states: Self.states)
        }
        #expect(try await store.user(tenantID: "t1", userID: "mallory") == nil, "a refused track creates no user")
    }

    @Test(arguments: StoreKind.allCases)
    func `racing tracks given as data with one key create one action across instances`(kind: StoreKind) async throws {
        let (fixture, stores) = try await StoreConcurrencyTests.instances(kind)
        defer { withExtendedLifetime(fixture) {} }
        #expect(try await StoreConcurrencyTests.race(stores, count: 16) { store, i in
            try await store.trackAction(
                Self.action("same"), changes: Self.changes(email: "u\(i)@example.com"), states: Self.states).created
        } == 1)
        // Tracks of one user with their own keys all land, each changing the newest user record.
        #expect(try await StoreConcurrencyTests.race(stores, count: 16) { store, i in
            try await store.trackAction(
                Self.action("key-\(i)", now: Int64(100 + i)), changes: Self.changes(username: "n\(i)", now: Int64(100 + i)),
                states: Self.states).created
        } == 16)
        let user = try #require(try await stores[1].user(tenantID: "t1", userID: "u"))
        #expect(user.username?.hasPrefix("n") == true && user.createdAt == 10)
        for i in 0..<16 {
            #expect(try await stores[1].action(tenantID: "t1", idempotencyKey: "key-\(i)")?.userID == "u")
        }
    }
}
