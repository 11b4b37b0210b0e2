@testable import AssentServerCore
@testable import AssentStorage
import AssentTestSupport
import Foundation
import Testing

/// The console's reads of users and challenges (``UserDirectoryStore``) on both stores: the id-prefix search in byte
/// order, a page at a time, within one tenant, with no wildcard in the prefix; a user's newest challenges first; and
/// both planned over an index, never a scan of the tenant's users or challenges.
@Suite(.serialized) struct UserDirectoryStoreTests {
    static let now: Int64 = 1_800_000_000_000
    /// Ids whose byte order differs from a linguistic collation's (which ignores `-` and `_` at first).
    static let ids = ["ab1", "a-c", "b", "a_b", "a%b", "ab2", "a-b", "abc", "A-b", "äb", "a"]

    static func users(_ store: any ServerStore) async throws {
        try await store.insertTenant(StoreTests.tenant(id: "t2", secret: 2))
        for id in ids { try await store.saveUser(User(tenantID: "t1", userID: id, now: now)) }
        try await store.saveUser(User(tenantID: "t2", userID: "ab0", now: now))
    }

    @Test(arguments: StoreKind.allCases) func `users are found by id prefix in byte order, a page at a time, in their tenant only`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await Self.users(store)
        func ids(_ prefix: String, after: String? = nil, limit: Int = 50, tenant: String = "t1") async throws -> [String] {
            try await store.searchUsers(tenantID: tenant, prefix: prefix, after: after, limit: limit).map(\.userID)
        }
        #expect(try await ids("a-") == ["a-b", "a-c"])
        #expect(try await ids("ab") == ["ab1", "ab2", "abc"])
        #expect(try await ids("a_") == ["a_b"], "_ is no wildcard")
        #expect(try await ids("a%") == ["a%b"], "% is no wildcard")
        #expect(try await ids("a") == ["a", "a%b", "a-b", "a-c", "a_b", "ab1", "ab2", "abc"])
        #expect(try await ids("ä") == ["äb"])
        #expect(try await ids("") == Self.ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(try await ids("z").isEmpty)
        // Pages: each starts after the last id of the one before.
        #expect(try await ids("a", limit: 3) == ["a", "a%b", "a-b"])
        #expect(try await ids("a", after: "a-b", limit: 3) == ["a-c", "a_b", "ab1"])
        #expect(try await ids("a", after: "ab1", limit: 3) == ["ab2", "abc"])
        #expect(try await ids("a", after: "abc", limit: 3).isEmpty)
        #expect(try await ids("ab", tenant: "t2") == ["ab0"])
    }

    @Test(arguments: StoreKind.allCases) func `a user's newest challenges come first, of that user and tenant only`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let store = fixture.store
        defer { withExtendedLifetime(fixture) {} }
        try await Self.users(store)
        func insert(_ id: String, tenant: String = "t1", user: String, at offset: Int64, kind: Challenge.Kind = .push) async throws {
            var challenge = Challenge(
                id: id, tenantID: tenant, kind: kind, createdAt: Self.now + offset, expiresAt: Self.now + offset + 60_000)
            challenge.userID = user
            #expect(try await store.insertChallenge(challenge, maxOpenForUser: nil))
        }
        try await insert("c1", user: "ab1", at: 1)
        try await insert("c3", user: "ab1", at: 3, kind: .qrCode)
        try await insert("c2", user: "ab1", at: 2)
        try await insert("other-user", user: "ab2", at: 4)
        try await insert("other-tenant", tenant: "t2", user: "ab1", at: 5)
        #expect(try await store.recentChallenges(tenantID: "t1", userID: "ab1", limit: 20).map(\.id) == ["c3", "c2", "c1"])
        #expect(try await store.recentChallenges(tenantID: "t1", userID: "ab1", limit: 2).map(\.id) == ["c3", "c2"])
        #expect(try await store.recentChallenges(tenantID: "t1", userID: "nobody", limit: 20).isEmpty)
    }

    @Test func `on SQLite the search ranges over the users' primary key and the recent challenges over an index`() async throws {
        let fixture = try await StoreTests.fixture(.sqlite)
        defer { withExtendedLifetime(fixture) {} }
        let location = fixture.location
        let (search, recent) = try await offPool { () -> ([String], [String]) in
            let connection = try SQLiteConnection(path: location)
            func plan(_ sql: SQL, _ values: [StoreValue]) throws -> [String] {
                try connection.query(SQL(stringLiteral: "EXPLAIN QUERY PLAN " + sql.sqlite), values) { try $0.string(3) }
            }
            return (
                try plan(UserDirectoryQueries.search, [.text("t1"), .text("ab"), .text(""), .integer(51)]),
                try plan(UserDirectoryQueries.recentChallenges, [.text("t1"), .text("ab1"), .integer(20)]))
        }
        #expect(search.contains { $0.contains("SEARCH users USING PRIMARY KEY (tenant_id=? AND user_id>?") }, "\(search)")
        #expect(!search.contains { $0.contains("TEMP B-TREE") }, "the key's order is the page's: \(search)")
        #expect(recent.contains { $0.contains("SEARCH challenges USING INDEX challenges_pending (tenant_id=? AND user_id=?)") }, "\(recent)")
        #expect(!recent.contains { $0.hasPrefix("SCAN challenges") }, "\(recent)")
    }
}
