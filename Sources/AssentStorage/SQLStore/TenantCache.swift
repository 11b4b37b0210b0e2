import AssentServerCore
import Foundation
import AssentSync

/// Tenants read recently, by id and by secret hash: every request looks its tenant up, and decoding its settings each
/// time showed in profiles. A store clears it at once when it changes a tenant. Changes made elsewhere (another
/// instance, the `assent` CLI) are seen within ``unwatchedLifetime`` — or, once the store watches the database
/// (``TenantChangeWatching``), as soon as its watcher clears the cache, entries then living up to ``watchedLifetime``
/// as a safety net only.
final class TenantCache: Sendable {
    /// How long a tenant read is reused when nothing watches the database, in nanoseconds.
    static let unwatchedLifetime: UInt64 = 1_000_000_000
    /// How long a tenant read is reused while a watcher clears the cache on every change, in nanoseconds.
    static let watchedLifetime: UInt64 = 60_000_000_000

    private struct Entry {
        var tenant: Tenant
        var until: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Bumped by every ``clear()``: a read that began before a clear is not cached after it, since it may
        /// predate the change the clear is for.
        var generation: UInt64 = 0
        var lifetime = TenantCache.unwatchedLifetime
    }

    private let state = AssentLock(State())

    /// The cached tenant under `key`, or the one `load` reads (cached when found).
    func tenant(_ key: String, load: () async throws -> Tenant?) async throws -> Tenant? {
        let now = DispatchTime.now().uptimeNanoseconds
        let (entry, generation) = state.withLock { ($0.entries[key], $0.generation) }
        if let entry, entry.until > now { return entry.tenant }
        guard let tenant = try await load() else { return nil }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= 10_000 { state.entries.removeAll() }
            state.entries[key] = Entry(tenant: tenant, until: now + state.lifetime)
        }
        return tenant
    }

    /// Forgets every tenant.
    func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation &+= 1
        }
    }

    /// A watcher now clears the cache on every change: entries may live ``watchedLifetime``.
    func watched() {
        state.withLock { $0.lifetime = Self.watchedLifetime }
    }
}
