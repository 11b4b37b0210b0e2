import Foundation

/// What `assent admin master-key rotate` and `retire` do to the database once the ring is decided: every sealed value
/// moves to the ring's current version, and every tenant's audit chain records the change.
///
/// The ring file is written **before** a rotation re-seals anything (a value sealed under a version the running
/// servers cannot read yet would be lost to them; they find the new version in the file when they meet it) and
/// **after** a retirement re-sealed everything (a version is retired only once nothing sealed depends on it). Each
/// tenant's push credentials are re-sealed in the same transaction as that tenant's audit entry; the PowerAuth secrets
/// of all tenants in one transaction. Running either again is harmless: what is already under the current version is
/// left alone.
///
/// Tenant secret keys are not moved here: a secret is derived, not stored, so moving it would change it under the
/// tenant's feet. A tenant moves at its next secret rotation, and ``tenantsUsing(_:)`` is what `retire` refuses on.
package struct MasterKeyRotation: Sendable {
    /// What a pass changed.
    package struct Summary: Sendable, Equatable {
        /// Tenants whose push credentials were re-sealed.
        package var pushCredentialTenants = 0
        /// PowerAuth secrets (application master keys, activation master secrets) re-sealed.
        package var powerAuthSecrets = 0
        /// Tenants whose audit chain got an entry.
        package var auditedTenants = 0
    }

    private let store: any ServerStore
    private let keys: MasterKeys
    private let clock: WallClock
    private let actor: String

    /// Works on `store` with the ring `keys` (its current version is where everything moves), as `actor`.
    package init(store: any ServerStore, keys: MasterKeys, clock: WallClock, actor: String = "cli") {
        self.store = store
        self.keys = keys
        self.clock = clock
        self.actor = actor
    }

    /// The ids of the tenants whose secret key was derived from ring version `version`.
    package func tenantsUsing(_ version: Int) async throws -> [String] {
        try await store.tenants().filter { $0.secretKeyRingVersion == version }.map(\.id)
    }

    /// Re-seals every sealed value not under the current version, and appends a `kind` entry with `details` to every
    /// tenant's audit chain (with its push credentials' re-seal, when it has any).
    package func apply(_ kind: AuditKind, details: [String: String]) async throws -> Summary {
        var summary = Summary()
        let sealer = PushCredentialSealer(keys: keys)
        let audit = AuditLog(store: store, keys: keys, clock: clock)
        for tenant in try await store.tenants() {
            let entry = audit.entry(tenantID: tenant.id, kind, actor: actor, details: details)
            guard let push = tenant.settings.push, push.apns != nil || push.fcm != nil else {
                _ = try await store.appendAudit(entry)
                summary.auditedTenants += 1
                continue
            }
            // Re-sealed inside the store's transaction, on the settings as they are then (not as listed above).
            let tenantID = tenant.id
            let updated = try await store.updateTenantSettings(id: tenantID, audit: entry) { settings in
                guard var push = settings.push else { return }
                if let apns = push.apns, let resealed = try sealer.resealed(apns.sealedKey, tenantID: tenantID, purpose: "apns") {
                    push.apns?.sealedKey = resealed
                }
                if let fcm = push.fcm,
                   let resealed = try sealer.resealed(fcm.sealedServiceAccount, tenantID: tenantID, purpose: "fcm") {
                    push.fcm?.sealedServiceAccount = resealed
                }
                settings.push = push
            }
            if updated {
                summary.pushCredentialTenants += 1
                summary.auditedTenants += 1
            }
        }
        let secrets = SecretSealer(keys: keys)
        let current = keys.current.current
        summary.powerAuthSecrets = try await store.resealPowerAuthSecrets { sealed, owner in
            guard SecretSealer.ringVersion(of: sealed)?.version != current else { return nil }
            let context = switch owner {
            case .application(let tenantID): ActivationService.masterKeyContext(tenantID)
            case .activation(let id): ActivationService.masterSecretContext(id)
            }
            return try secrets.seal(try secrets.open(sealed, context: context), context: context)
        }
        return summary
    }
}
