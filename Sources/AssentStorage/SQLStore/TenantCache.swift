import AssentServerCore
import Foundation
import AssentSync

/// Tenants read in the last second, by id and by secret hash: every request looks its tenant up, and decoding its
/// settings each time showed in profiles. A store clears it at once when it changes a tenant; changes made elsewhere
/// (another instance, the `assent` CLI) are seen within ``lifetime``.
final class TenantCache: Sendable {
    /// How long a tenant read is reused, in nanoseconds.
    static let lifetime: UInt64 = 1_000_000_000
    private let entries = AssentLock<[String: (tenant: Tenant, until: UInt64)]>([:])

    /// The cached tenant under `key`, or the one `load` reads (cached when found).
    func tenant(_ key: String, load: () async throws -> Tenant?) async throws -> Tenant? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let entry = entries.withLock({ $0[key] }), entry.until > now { return entry.tenant }
        guard let tenant = try await load() else { return nil }
        entries.withLock { cache in
            if cache.count >= 10_000 { cache.removeAll() }
            cache[key] = (tenant, now + Self.lifetime)
        }
        return tenant
    }

    /// Forgets every tenant.
    func clear() {
        entries.withLock { $0.removeAll() }
    }
}
