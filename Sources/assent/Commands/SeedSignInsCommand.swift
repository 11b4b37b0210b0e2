import AssentServerCore
import Foundation

/// `assent admin seed-sign-ins`: bulk-loads rows of the authentication history into a tenant (``SignInSeeder``,
/// ``SeedStore/insertSeedSignIns(_:)``): a busy tenant's month for a benchmark, or old rows for a retention test.
enum SeedSignInsCommand {
    static let defaultBatch = 50_000

    static let command = Command.leaf(
        "seed-sign-ins", "load N rows of sign-in history into a tenant (for benchmarks and retention tests)",
        details: """
            Row i belongs to seed-user-(i mod USERS) and is spread evenly over the DAYS days before now, oldest first;
            per 50 rows 40 are approved, 5 declined (one a fraud report), 3 expired and 2 refused; every fourth is a QR
            sign-in; the action codes signIn, payment, changeEmail and addPayee take turns every 7 rows. Rows go in
            batches, one transaction each, many rows per statement. Seeding again adds the rows again.
            """,
        options: [
            TenantDatabase.option, .required("--tenant", "ID", "the tenant (assent admin tenant create)"),
            .required("--rows", "N", "how many rows"),
            .optional("--users", "N", "over how many users (default 10000)"),
            .optional("--days", "D", "over how many days before now (default 30)"),
            .optional("--batch", "N", "rows per transaction (default \(defaultBatch))"),
        ]
    ) { invocation in
        let options = invocation.options
        let tenantID = try options.required("--tenant")
        let rows = try SeedCommand.count(options.required("--rows"), "--rows", maximum: 1_000_000_000)
        let users = try options.string("--users").map { try SeedCommand.count($0, "--users", maximum: 100_000_000) } ?? 10_000
        let days = try options.string("--days").map { try SeedCommand.count($0, "--days", maximum: 3650) } ?? 30
        let batchSize = try options.string("--batch").map { try SeedCommand.count($0, "--batch", maximum: 1_000_000) }
            ?? defaultBatch
        let summary = try await TenantDatabase.withStore(invocation) { store, _ in
            _ = try await TenantDatabase.tenant(tenantID, in: store)
            let started = Date()
            let seeder = SignInSeeder(
                tenantID: tenantID, count: rows, users: users, days: days, now: Int64(started.timeIntervalSince1970 * 1000))
            // The next batch is built while the store writes the previous one.
            var inserted = 0
            var writing: Task<Int, any Error>?
            for start in stride(from: 0, to: rows, by: batchSize) {
                let batch = seeder.batch(start..<min(start + batchSize, rows))
                if let writing { inserted += try await writing.value }
                writing = Task { try await store.insertSeedSignIns(batch) }
            }
            if let writing { inserted += try await writing.value }
            try await store.settleSeededTables()
            let seconds = Date().timeIntervalSince(started)
            return SeedSignInsSummary(
                tenantId: tenantID, rows: inserted, users: users, days: days, seconds: (seconds * 1000).rounded() / 1000,
                rowsPerSecond: seconds > 0 ? Int(Double(inserted) / seconds) : 0)
        }
        try invocation.output.result(summary) {
            "seeded tenant \(summary.tenantId): \(summary.rows) sign-ins of \(summary.users) users over \(summary.days) days"
                + " in \(String(format: "%.1f", summary.seconds)) s (\(summary.rowsPerSecond) rows/s)"
        }
    }
}

/// What `assent admin seed-sign-ins` did.
struct SeedSignInsSummary: Encodable {
    let tenantId: String
    let rows: Int
    let users: Int
    let days: Int
    let seconds: Double
    let rowsPerSecond: Int
}
