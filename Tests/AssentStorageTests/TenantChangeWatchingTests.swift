@testable import AssentServerCore
@testable import AssentStorage
import Foundation
import Synchronization
import Testing

/// The tenant cache and the watchers that keep it fresh (``TenantChangeWatching``): a cached tenant is served without
/// a read, a clear forces the next read, a read that raced a clear is not kept, and a second store on the same
/// database that watches sees a change made through the first within the documented bound, on both stores.
@Suite(.serialized) struct TenantChangeWatchingTests {
    @Test func `a cached tenant is served without a read until the cache is cleared`() async throws {
        let cache = TenantCache()
        cache.watched()
        let loads = Atomic<Int>(0)
        let load: () async throws -> Tenant? = {
            loads.add(1, ordering: .relaxed)
            return StoreTests.tenant()
        }
        for _ in 0..<5 { #expect(try await cache.tenant("id:t1", load: load)?.id == "t1") }
        #expect(loads.load(ordering: .relaxed) == 1, "one read, then the cache")
        cache.clear()
        _ = try await cache.tenant("id:t1", load: load)
        #expect(loads.load(ordering: .relaxed) == 2, "a clear makes the next request read again")
    }

    @Test func `a read that began before a clear is not kept after it`() async throws {
        let cache = TenantCache()
        cache.watched()
        // The clear lands while the read is under way: what it read may predate the change.
        _ = try await cache.tenant("id:t1") {
            cache.clear()
            return StoreTests.tenant()
        }
        let loads = Atomic<Int>(0)
        _ = try await cache.tenant("id:t1") {
            loads.add(1, ordering: .relaxed)
            return StoreTests.tenant()
        }
        #expect(loads.load(ordering: .relaxed) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func `a change through one store reaches another watching store within the bound`(kind: StoreKind) async throws {
        let fixture = try await StoreTests.fixture(kind)
        let other = try await fixture.another()
        defer { withExtendedLifetime(fixture) {} }
        let watching = try #require(other as? any TenantChangeWatching)
        watching.watchTenantChanges()
        #expect(try await other.tenant(id: "t1")?.settings.challengeTimeoutSeconds == 120)  // now cached
        // Let the watcher take its baseline (SQLite) or its LISTEN (PostgreSQL) — each clears the cache when it starts
        // — so the change below is seen by watching, not by that first clear.
        try await Task.sleep(for: .milliseconds(300))
        _ = try await other.tenant(id: "t1")

        var changed = StoreTests.tenant()
        changed.settings.challengeTimeoutSeconds = 300
        let started = ContinuousClock.now
        #expect(try await fixture.store.updateTenant(changed))
        while try await other.tenant(id: "t1")?.settings.challengeTimeoutSeconds != 300 {
            #expect(ContinuousClock.now - started < .seconds(3), "the watching store still has the old tenant")
            if ContinuousClock.now - started >= .seconds(3) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        await other.close()
    }
}
