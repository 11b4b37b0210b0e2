import AssentServerCore
import AssentWire
import Foundation
import Synchronization

/// The store for several `assentd` instances sharing one PostgreSQL database. Queries run on a pool of
/// connections (``PostgresPool``), each on its own queue; every method is one transaction at READ COMMITTED, made
/// safe under concurrency from any number of instances by conditional updates (`UPDATE … WHERE state = …`),
/// row locks (`SELECT … FOR UPDATE`, e.g. on an activation while its counter advances), transaction-scoped advisory
/// locks, and `FOR UPDATE SKIP LOCKED` for the webhook outbox and the push delivery queue. Claims and answers are
/// announced to the other instances with `NOTIFY` once committed (see ``writeAndAnnounce(_:)`` and
/// ``PostgresChangeListener``).
package final class PostgresStore:
    TenantStore, UserStore, ActionStore, CredentialStore, ChallengeStore, WebhookOutbox, StoreMaintenance
{
    let pool: PostgresPool
    /// Tells this instance's own notifications apart from other instances'.
    let instanceID: String
    private let listener: Mutex<PostgresChangeListener?> = Mutex(nil)
    private let tenantCache = Mutex<[String: (tenant: Tenant, until: UInt64)]>([:])
    static let tenantCacheLifetime: UInt64 = 1_000_000_000
    /// The channel challenge changes are announced on.
    static let challengeChannel = "assent_challenges"
    /// How long an instance holds a claimed webhook event before another may try it.
    static let webhookLease: Int64 = SQLiteStore.webhookLease

    /// Connects to `url` with a pool of `connections`, and applies pending migrations (under an advisory lock).
    package init(url: String, connections: Int) throws {
        pool = PostgresPool(url: url, size: connections)
        instanceID = UUID().uuidString.lowercased()
        let connection = try PostgresConnection(url: url)
        try PostgresMigrations.apply(to: connection)
    }

    /// Applies pending migrations to the database at `url` and returns the versions applied.
    package static func migrate(url: String) throws -> [Int] {
        try PostgresMigrations.apply(to: PostgresConnection(url: url))
    }

    package var databaseKind: String { "postgresql" }

    package func healthCheck() async throws {
        let writable = try await read { db in
            try db.queryOne("SELECT NOT pg_is_in_recovery()") { $0.bool(0) } ?? false
        }
        guard writable else { throw StoreError(.queryFailed, "the database is a read-only replica") }
    }

    package func close() async {
        listener.withLock { $0?.stop() }
        pool.close()
    }

    /// Runs queries that change nothing (so they may be retried on a fresh connection).
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.withConnection(idempotent: true, body)
    }

    /// Runs one statement that changes data, on its own (PostgreSQL makes a lone statement atomic): the
    /// `BEGIN`/`COMMIT` round trips of ``write(_:)`` are saved. Never retried, since a lost connection leaves its
    /// outcome unknown.
    @discardableResult
    func writeOne<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.transaction(body)
    }

    /// Runs `body` in a transaction and, once it committed, announces the challenge it returns (if any) to the other
    /// instances. The `NOTIFY` runs after the commit on purpose: PostgreSQL serialises the commits of all
    /// transactions that notify (a global lock held through the WAL flush), which made every answer wait for every
    /// other one; on its own a `NOTIFY` flushes nothing. A crash between the two loses only the announcement, and the
    /// watchers' periodic re-check (``ChallengeEventBridge``) still sees the change.
    func writeAndAnnounce(
        _ body: @escaping @Sendable (PostgresConnection) throws -> Challenge?
    ) async throws -> Challenge? {
        let instanceID = self.instanceID
        return try await pool.transaction(body) { db, challenge in
            guard let challenge else { return }
            let payload = ChallengeChange(tenantID: challenge.tenantID, challengeID: challenge.id, state: challenge.state)
                .payload(from: instanceID)
            _ = try? db.update("SELECT pg_notify($1, $2)", [.text(Self.challengeChannel), .text(payload)])
        }
    }

    // MARK: Tenants

    static let tenantColumns = "id, name, secret_hash, key_version, settings, created_at, secret_version"

    package func insertTenant(_ tenant: Tenant) async throws {
        let settings = try SQLiteStore.encode(tenant.settings)
        try await writeOne { db in
            try db.update(
                "INSERT INTO tenants (\(Self.tenantColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [.text(tenant.id), .text(tenant.name), .blob(tenant.secretHash), .integer(Int64(tenant.keyVersion)),
                 .text(settings), .integer(tenant.createdAt), .integer(Int64(tenant.secretVersion))])
        }
    }

    private func cachedTenant(_ key: String, load: () async throws -> Tenant?) async throws -> Tenant? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let entry = tenantCache.withLock({ $0[key] }), entry.until > now { return entry.tenant }
        guard let tenant = try await load() else { return nil }
        tenantCache.withLock { cache in
            if cache.count >= 10_000 { cache.removeAll() }
            cache[key] = (tenant, now + Self.tenantCacheLifetime)
        }
        return tenant
    }

    package func tenant(id: String) async throws -> Tenant? {
        try await cachedTenant("id:" + id) {
            try await read { try $0.queryOne("SELECT \(Self.tenantColumns) FROM tenants WHERE id = $1", [.text(id)], StoreRecords.tenant) }
        }
    }

    package func tenant(secretHash: [UInt8]) async throws -> Tenant? {
        try await cachedTenant("hash:" + secretHash.map { String($0, radix: 16) }.joined(separator: ".")) {
            try await read {
                try $0.queryOne("SELECT \(Self.tenantColumns) FROM tenants WHERE secret_hash = $1", [.blob(secretHash)], StoreRecords.tenant)
            }
        }
    }

    package func tenants() async throws -> [Tenant] {
        try await read { try $0.query("SELECT \(Self.tenantColumns) FROM tenants ORDER BY created_at, id", [], StoreRecords.tenant) }
    }

    package func updateTenant(_ tenant: Tenant) async throws -> Bool {
        let settings = try SQLiteStore.encode(tenant.settings)
        defer { tenantCache.withLock { $0.removeAll() } }
        return try await writeOne { db in
            try db.update(
                "UPDATE tenants SET name = $1, secret_hash = $2, key_version = $3, settings = $4, secret_version = $5 WHERE id = $6",
                [.text(tenant.name), .blob(tenant.secretHash), .integer(Int64(tenant.keyVersion)), .text(settings),
                 .integer(Int64(tenant.secretVersion)), .text(tenant.id)]) == 1
        }
    }

    // MARK: Users

    static let userColumns = SQLiteStore.userColumns

    static func encodeCustom(_ custom: [String: JSONValue]?) -> PostgresValue {
        guard let custom, let data = try? JSONEncoder().encode(custom) else { return .null }
        return .text(String(decoding: data, as: UTF8.self))
    }

    /// Creates or replaces a user record: parameters $1…$12 are ``userValues(_:)``.
    static let upsertUser = """
        INSERT INTO users (\(userColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        ON CONFLICT (tenant_id, user_id) DO UPDATE SET email = excluded.email,
          email_verified = excluded.email_verified, phone_number = excluded.phone_number,
          phone_number_verified = excluded.phone_number_verified, username = excluded.username,
          display_name = excluded.display_name, locale = excluded.locale, custom = excluded.custom,
          updated_at = excluded.updated_at
        """

    static func userValues(_ user: User) -> [PostgresValue] {
        [.text(user.tenantID), .text(user.userID), .optional(user.email), .bool(user.emailVerified),
         .optional(user.phoneNumber), .bool(user.phoneNumberVerified), .optional(user.username),
         .optional(user.displayName), .optional(user.locale), encodeCustom(user.custom), .integer(user.createdAt),
         .integer(user.updatedAt)]
    }

    static func saveUser(_ user: User, in db: PostgresConnection) throws {
        try db.update(upsertUser, userValues(user))
    }

    /// Creates the user record when missing, leaving an existing one as it is.
    static func ensureUser(tenantID: String, userID: String, now: Int64, in db: PostgresConnection) throws {
        try db.update(
            """
            INSERT INTO users (tenant_id, user_id, created_at, updated_at) VALUES ($1, $2, $3, $3)
            ON CONFLICT (tenant_id, user_id) DO NOTHING
            """,
            [.text(tenantID), .text(userID), .integer(now)])
    }

    static func user(tenantID: String, userID: String, in db: PostgresConnection, lock: Bool = false) throws -> User? {
        try db.queryOne(
            "SELECT \(userColumns) FROM users WHERE tenant_id = $1 AND user_id = $2\(lock ? " FOR UPDATE" : "")",
            [.text(tenantID), .text(userID)], StoreRecords.user)
    }

    package func user(tenantID: String, userID: String) async throws -> User? {
        try await read { try Self.user(tenantID: tenantID, userID: userID, in: $0) }
    }

    package func saveUser(_ user: User) async throws {
        try await writeOne { try Self.saveUser(user, in: $0) }
    }

    package func deleteUser(
        tenantID: String, userID: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await write { db in
            guard try Self.user(tenantID: tenantID, userID: userID, in: db, lock: true) != nil else { return false }
            for authenticator in try Self.authenticators(tenantID: tenantID, userID: userID, in: db) {
                try Self.enqueue(events(authenticator), in: db)
            }
            return try db.update("DELETE FROM users WHERE tenant_id = $1 AND user_id = $2", [.text(tenantID), .text(userID)]) == 1
        }
    }

    // MARK: Actions

    static let actionColumns = SQLiteStore.actionColumns

    static func action(tenantID: String, idempotencyKey: String, in db: PostgresConnection) throws -> Action? {
        try db.queryOne(
            "SELECT \(actionColumns) FROM actions WHERE tenant_id = $1 AND idempotency_key = $2",
            [.text(tenantID), .text(idempotencyKey)], StoreRecords.action)
    }

    package func trackAction(
        _ action: Action, user: @escaping @Sendable (User?) -> User,
        decide: @escaping @Sendable (inout Action, [Authenticator]) -> Void
    ) async throws -> TrackOutcome {
        try await write { db in
            if let existing = try Self.action(tenantID: action.tenantID, idempotencyKey: action.idempotencyKey, in: db) {
                guard existing.userID == action.userID, existing.actionCode == action.actionCode else {
                    throw StoreError(.constraintViolation, "idempotency key already names another action")
                }
                let authenticators = try Self.authenticators(tenantID: action.tenantID, userID: action.userID, in: db)
                return TrackOutcome(action: existing, authenticators: authenticators, created: false)
            }
            // The user row is locked first, so the authenticators read next cannot change before the action is in.
            let current = try Self.user(tenantID: action.tenantID, userID: action.userID, in: db, lock: true)
            let authenticators = try Self.authenticators(tenantID: action.tenantID, userID: action.userID, in: db)
            var decided = action
            decide(&decided, authenticators)
            // The user record and the action in one statement. Another instance may have inserted the same key
            // meanwhile: then start over and return its action.
            let inserted = try db.update(
                "WITH u AS (\(Self.upsertUser) RETURNING 1) " + Self.insertActionSQL(firstParameter: 13)
                    + " ON CONFLICT (tenant_id, idempotency_key) DO NOTHING",
                Self.userValues(user(current)) + Self.actionValues(decided))
            guard inserted == 1 else { throw PostgresRetry() }
            return TrackOutcome(action: decided, authenticators: authenticators, created: true)
        }
    }

    /// `INSERT INTO actions … VALUES` with ``actionValues(_:)`` as parameters from `$firstParameter` on.
    static func insertActionSQL(firstParameter: Int) -> String {
        let placeholders = (firstParameter..<firstParameter + 15).map { "$\($0)" }.joined(separator: ", ")
        return "INSERT INTO actions (\(actionColumns)) VALUES (\(placeholders))"
    }

    static func actionValues(_ a: Action) -> [PostgresValue] {
        [.text(a.tenantID), .text(a.idempotencyKey), .text(a.userID), .text(a.actionCode), .text(a.state.rawValue),
         .integer(a.createdAt), .integer(a.stateUpdatedAt), .optional(a.verificationMethod?.rawValue),
         .optional(a.ipAddress), .optional(a.userAgent), .optional(a.deviceID), .optional(a.redirectURL),
         encodeCustom(a.custom), .optional(a.scope), .optional(a.validatedAt)]
    }

    static func insertAction(_ a: Action, in db: PostgresConnection) throws {
        try db.update(insertActionSQL(firstParameter: 1), actionValues(a))
    }

    package func action(tenantID: String, idempotencyKey: String) async throws -> Action? {
        try await read { try Self.action(tenantID: tenantID, idempotencyKey: idempotencyKey, in: $0) }
    }

    package func updateActionState(
        tenantID: String, idempotencyKey: String, state: ActionState, verificationMethod: VerificationMethod?, at: Int64
    ) async throws -> Action? {
        try await writeOne { db in
            try db.queryOne(
                """
                UPDATE actions SET state = $1, verification_method = COALESCE($2, verification_method),
                  state_updated_at = $3 WHERE tenant_id = $4 AND idempotency_key = $5
                RETURNING \(Self.actionColumns)
                """,
                [.text(state.rawValue), .optional(verificationMethod?.rawValue), .integer(at), .text(tenantID),
                 .text(idempotencyKey)], StoreRecords.action)
        }
    }

    package func markActionValidated(tenantID: String, idempotencyKey: String, at: Int64) async throws -> Bool {
        // A conditional update: a second caller waits for the first one's row lock, then re-checks
        // `validated_at IS NULL` against the committed row and changes nothing.
        try await writeOne { db in
            try db.update(
                """
                UPDATE actions SET validated_at = $1
                WHERE tenant_id = $2 AND idempotency_key = $3 AND validated_at IS NULL
                """,
                [.integer(at), .text(tenantID), .text(idempotencyKey)]) == 1
        }
    }

    // MARK: Authenticators

    static let authenticatorColumns = SQLiteStore.authenticatorColumns

    static func authenticators(tenantID: String, userID: String, in db: PostgresConnection) throws -> [Authenticator] {
        try db.query(
            "SELECT \(authenticatorColumns) FROM authenticators WHERE tenant_id = $1 AND user_id = $2 ORDER BY created_at, id",
            [.text(tenantID), .text(userID)], StoreRecords.authenticator)
    }

    package func authenticators(tenantID: String, userID: String) async throws -> [Authenticator] {
        try await read { try Self.authenticators(tenantID: tenantID, userID: userID, in: $0) }
    }

    package func insertAuthenticator(_ authenticator: Authenticator) async throws {
        try await write { db in try Self.insertAuthenticator(authenticator, in: db) }
    }

    static func insertAuthenticator(_ a: Authenticator, in db: PostgresConnection) throws {
        try ensureUser(tenantID: a.tenantID, userID: a.userID, now: a.createdAt, in: db)
        try db.update(
            """
            INSERT INTO authenticators (\(authenticatorColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
            """,
            authenticatorValues(a))
    }

    static func authenticatorValues(_ a: Authenticator) -> [PostgresValue] {
        [.text(a.id), .text(a.tenantID), .text(a.userID), .text(a.verificationMethod.rawValue),
         .integer(a.createdAt), .optional(a.verifiedAt), .optional(a.lastVerifiedAt), .optional(a.email),
         .optional(a.phoneNumber), .bool(a.isDefault), .optional(a.devicePlatform), .optional(a.deviceName),
         .optional(a.publicKey), .optional(a.pushToken), .optional(a.expiresAt),
         .optional(a.erroredAt), .optional(a.errorCode), .bool(a.userPresenceRequired),
         .bool(a.userAuthenticationRequired), .optional(a.authenticationTimeout.map(Int64.init)),
         .optional(a.authorizationType)]
    }

    package func deleteAuthenticator(
        tenantID: String, userID: String, id: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await write { db in
            guard let deleted = try db.queryOne(
                "DELETE FROM authenticators WHERE tenant_id = $1 AND user_id = $2 AND id = $3 RETURNING \(Self.authenticatorColumns)",
                [.text(tenantID), .text(userID), .text(id)], StoreRecords.authenticator)
            else { return false }
            try Self.enqueue(events(deleted), in: db)
            return true
        }
    }
}

extension PostgresStore: ChallengeChangeFeed {
    package func watchChallengeChanges(_ handler: @escaping @Sendable (ChallengeChange) -> Void) {
        let started = PostgresChangeListener(url: pool.url, instanceID: instanceID, handler: handler)
        let previous = listener.withLock { current -> PostgresChangeListener? in
            defer { current = started }
            return current
        }
        previous?.stop()
        started.start()
    }
}
