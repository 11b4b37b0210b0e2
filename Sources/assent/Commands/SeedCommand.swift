import AssentCrypto
import AssentServerCore
import Foundation
import Glibc

/// `assent admin seed`: bulk-loads test users into a tenant (``Seeder``, ``SeedStore``), for benchmarks at the size of
/// a real tenant. The device keys are derived from the seed (``SeededDevice``), so a benchmark signs as any seeded
/// device; whoever knows the seed does too, which is why the command refuses a tenant that already has users.
enum SeedCommand {
    static let defaultBatch = 10_000

    static let command = Command.leaf(
        "seed", "load N test users with push credentials and history into a tenant (for benchmarks)",
        details: """
            User i is seed-user-i with a push credential (and with --qr a QR credential, with --powerauth an active
            PowerAuth activation) whose device key is derived from the seed and i, so a benchmark can sign as it
            (assent-bench --seeded-users N); plus an enrolment and three push sign-ins over the past day (approved,
            denied, expired) and with --qr an approved QR sign-in. No challenge is left pending.
            Users are written in batches, one transaction each. A tenant that already has users is refused unless
            --force; seeding again with the same seed adds nothing. Anyone who knows the seed holds every seeded
            device's key: never seed a tenant real users use.
            """,
        options: [
            TenantDatabase.option, .required("--tenant", "ID", "the tenant (assent admin tenant create)"),
            .required("--users", "N", "how many users to create"),
            .optional("--seed", "S", "the seed the device keys and ids derive from (default \"\(SeededDevice.defaultSeed)\")"),
            .flag("--qr", "give each user a QR credential and an approved QR sign-in too"),
            .flag("--powerauth", "give each user an active PowerAuth activation too"),
            .optional("--batch", "N", "users per transaction (default \(defaultBatch))"),
            .flag("--force", "seed even a tenant that already has users"),
        ]
    ) { invocation in
        let options = invocation.options
        let tenantID = try options.required("--tenant")
        let users = try count(options.required("--users"), "--users", maximum: 100_000_000)
        let batchSize = try options.string("--batch").map { try count($0, "--batch", maximum: 1_000_000) } ?? defaultBatch
        let seed = options.string("--seed") ?? SeededDevice.defaultSeed
        guard !seed.isEmpty else { throw CLIError.usage("--seed must not be empty") }
        let (qrCode, powerAuth) = (options.flag("--qr"), options.flag("--powerauth"))
        let progress = SeedProgress(total: users, enabled: !invocation.output.json && isatty(STDERR_FILENO) == 1)

        let summary = try await TenantDatabase.withStore(invocation) { store, keys in
            let tenant = try await TenantDatabase.tenant(tenantID, in: store)
            if !options.flag("--force"), try await store.tenantHasUsers(tenantID: tenantID) {
                throw CLIError.failure(
                    "tenant \(tenantID) already has users; --force seeds it anyway", errorCode: "tenant_has_users")
            }
            if powerAuth {
                // Activations verify against the tenant's application: create it now, as assentd would on first use.
                _ = try await ActivationService(store: store, clock: .system, keys: keys)
                    .application(tenantID: tenantID)
            }
            let started = Date()
            let seeder = Seeder(
                tenant: tenant, seed: seed, qrCode: qrCode, powerAuth: powerAuth, keys: keys,
                now: Int64(started.timeIntervalSince1970 * 1000))
            // The next batch is built (its keys derived) while the store writes the previous one.
            var inserted = SeedCounts()
            var writing: Task<SeedCounts, any Error>?
            var done = 0
            for start in stride(from: 0, to: users, by: batchSize) {
                let batch = try seeder.batch(start..<min(start + batchSize, users))
                if let writing {
                    inserted = inserted + (try await writing.value)
                    progress.show(done)
                }
                done = start + batch.users.count
                writing = Task { try await store.insertSeedBatch(batch) }
            }
            if let writing { inserted = inserted + (try await writing.value) }
            // Statistics, visibility and the load's dirty pages settled now rather than under the next benchmark.
            try await store.settleSeededTables()
            progress.finish(users)
            // One audit entry for the whole run, not one per seeded user or credential.
            try await AuditLog(store: store, keys: keys, clock: .system).record(
                tenantID: tenantID, .seeded, actor: "cli",
                details: [
                    "users": String(users), "seedFingerprint": fingerprint(seed), "qr": String(qrCode),
                    "powerAuth": String(powerAuth), "newUsers": String(inserted.users),
                    "newCredentials": String(inserted.authenticators), "newActivations": String(inserted.activations),
                ])
            return SeedSummary(
                tenantId: tenantID, users: users, seedFingerprint: fingerprint(seed), qr: qrCode, powerAuth: powerAuth,
                inserted: inserted, seconds: Date().timeIntervalSince(started))
        }
        try invocation.output.result(summary) { summary.line }
    }

    /// A positive whole number from a flag's value.
    static func count(_ text: String, _ flag: String, maximum: Int) throws -> Int {
        guard let value = Int(text), value >= 1, value <= maximum else {
            throw CLIError.usage("\(flag) must be a whole number from 1 to \(maximum), got '\(text)'")
        }
        return value
    }

    /// The first 8 bytes of SHA-256 of the seed, in hex: names the seed in a log without handing out the keys.
    static func fingerprint(_ seed: String) -> String {
        SHA256.hash(Array(seed.utf8)).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// What `assent admin seed` did: its JSON with `--json`, otherwise one line for an audit log.
struct SeedSummary: Encodable {
    let tenantId: String
    let users: Int
    /// ``SeedCommand/fingerprint(_:)`` of the seed (never the seed: it is every seeded device's private key).
    let seedFingerprint: String
    let qr: Bool
    let powerAuth: Bool
    /// Rows new in each table (0 for rows an earlier run with the same seed made).
    let inserted: SeedCounts
    /// All of them.
    let rows: Int
    /// Wall-clock seconds, to the millisecond.
    let seconds: Double
    let rowsPerSecond: Int

    init(
        tenantId: String, users: Int, seedFingerprint: String, qr: Bool, powerAuth: Bool, inserted: SeedCounts,
        seconds: Double
    ) {
        (self.tenantId, self.users, self.seedFingerprint, self.qr, self.powerAuth) =
            (tenantId, users, seedFingerprint, qr, powerAuth)
        self.inserted = inserted
        rows = inserted.total
        self.seconds = (seconds * 1000).rounded() / 1000
        rowsPerSecond = seconds > 0 ? Int(Double(rows) / seconds) : 0
    }

    /// `seeded tenant T: N users (seed …, push[, qr][, powerauth]); new rows: …; R rows in S s (X rows/s)`.
    var line: String {
        let credentials = ["push"] + (qr ? ["qr"] : []) + (powerAuth ? ["powerauth"] : [])
        return "seeded tenant \(tenantId): \(users) users (seed sha256:\(seedFingerprint), \(credentials.joined(separator: "+")));"
            + " new rows: \(inserted.users) users, \(inserted.authenticators) credentials, \(inserted.actions) actions,"
            + " \(inserted.challenges) challenges, \(inserted.activations) activations;"
            + " \(rows) rows in \(String(format: "%.1f", seconds)) s (\(rowsPerSecond) rows/s)"
    }
}
