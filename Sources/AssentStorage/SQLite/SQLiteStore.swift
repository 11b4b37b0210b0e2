import AssentServerCore
import AssentWire
import Foundation
import Synchronization

/// The embedded store: one SQLite file in WAL mode with `synchronous=FULL`, so a change is fsync'd before anyone
/// hears it happened. All writes go through one group-committing writer thread (``SQLiteWriter``); reads use a
/// small pool of read-only connections and see every committed write.
package final class SQLiteStore:
    TenantStore, UserStore, ActionStore, CredentialStore, ChallengeStore, WebhookOutbox, StoreMaintenance
{
    let writer: SQLiteWriter
    private let readers: Mutex<[SQLiteConnection]>
    private let path: String
    /// Tenants read in the last second, by id and by secret hash: every request looks its tenant up, and decoding
    /// its settings each time showed in profiles. Changes made here clear it at once; changes another process makes
    /// (the `assent` CLI) are seen within ``tenantCacheLifetime``.
    private let tenantCache = Mutex<[String: (tenant: Tenant, until: UInt64)]>([:])
    static let tenantCacheLifetime: UInt64 = 1_000_000_000

    /// Opens (creating when missing) the database at `path`, creating its directory with owner-only permissions,
    /// and applies pending migrations.
    package init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = ON")
        try SQLiteMigrations.apply(to: connection)
        writer = SQLiteWriter(connection: connection)
        readers = Mutex([])
    }

    package var databaseKind: String { "sqlite" }

    package func healthCheck() async throws {
        _ = try read { try $0.queryOne("SELECT 1") { $0.int64(0) } }
        _ = try await writer.write { _ in true }
    }

    package func close() async {
        writer.close()
        readers.withLock { $0.removeAll() }
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try readers.withLock { $0.popLast() } ?? {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA query_only = 1")
            return connection
        }()
        defer { readers.withLock { $0.append(connection) } }
        return try body(connection)
    }

    // MARK: Tenants

    static let tenantColumns = "id, name, secret_hash, key_version, settings, created_at, secret_version"

    static func encode(_ settings: TenantSettings) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(settings), as: UTF8.self)
    }

    package func insertTenant(_ tenant: Tenant) async throws {
        let settings = try Self.encode(tenant.settings)
        try await writer.write { db in
            try db.run(
                "INSERT INTO tenants (\(Self.tenantColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.text(tenant.id), .text(tenant.name), .blob(tenant.secretHash), .integer(Int64(tenant.keyVersion)),
                 .text(settings), .integer(tenant.createdAt), .integer(Int64(tenant.secretVersion))])
        }
    }

    private func cachedTenant(_ key: String, load: () throws -> Tenant?) throws -> Tenant? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let entry = tenantCache.withLock({ $0[key] }), entry.until > now { return entry.tenant }
        guard let tenant = try load() else { return nil }
        tenantCache.withLock { cache in
            if cache.count >= 10_000 { cache.removeAll() }
            cache[key] = (tenant, now + Self.tenantCacheLifetime)
        }
        return tenant
    }

    package func tenant(id: String) async throws -> Tenant? {
        try cachedTenant("id:" + id) {
            try read { try $0.queryOne("SELECT \(Self.tenantColumns) FROM tenants WHERE id = ?", [.text(id)], StoreRecords.tenant) }
        }
    }

    package func tenant(secretHash: [UInt8]) async throws -> Tenant? {
        try cachedTenant("hash:" + secretHash.map { String($0, radix: 16) }.joined(separator: ".")) {
            try read {
                try $0.queryOne(
                    "SELECT \(Self.tenantColumns) FROM tenants WHERE secret_hash = ?", [.blob(secretHash)], StoreRecords.tenant)
            }
        }
    }

    package func tenants() async throws -> [Tenant] {
        try read { try $0.query("SELECT \(Self.tenantColumns) FROM tenants ORDER BY created_at, id", [], StoreRecords.tenant) }
    }

    package func updateTenant(_ tenant: Tenant) async throws -> Bool {
        let settings = try Self.encode(tenant.settings)
        defer { tenantCache.withLock { $0.removeAll() } }
        return try await writer.write { db in
            try db.run(
                "UPDATE tenants SET name = ?, secret_hash = ?, key_version = ?, settings = ?, secret_version = ? WHERE id = ?",
                [.text(tenant.name), .blob(tenant.secretHash), .integer(Int64(tenant.keyVersion)), .text(settings),
                 .integer(Int64(tenant.secretVersion)), .text(tenant.id)]) == 1
        }
    }

    // MARK: Users

    static let userColumns = """
        tenant_id, user_id, email, email_verified, phone_number, phone_number_verified, username, display_name, \
        locale, custom, created_at, updated_at
        """

    static func encodeCustom(_ custom: [String: JSONValue]?) -> SQLiteValue {
        guard let custom, let data = try? JSONEncoder().encode(custom) else { return .null }
        return .text(String(decoding: data, as: UTF8.self))
    }

    static func saveUser(_ user: User, in db: SQLiteConnection) throws {
        try db.run(
            """
            INSERT INTO users (\(userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (tenant_id, user_id) DO UPDATE SET email = excluded.email,
              email_verified = excluded.email_verified, phone_number = excluded.phone_number,
              phone_number_verified = excluded.phone_number_verified, username = excluded.username,
              display_name = excluded.display_name, locale = excluded.locale, custom = excluded.custom,
              updated_at = excluded.updated_at
            """,
            [.text(user.tenantID), .text(user.userID), .optional(user.email), .bool(user.emailVerified),
             .optional(user.phoneNumber), .bool(user.phoneNumberVerified), .optional(user.username),
             .optional(user.displayName), .optional(user.locale), encodeCustom(user.custom), .integer(user.createdAt),
             .integer(user.updatedAt)])
    }

    static func user(tenantID: String, userID: String, in db: SQLiteConnection) throws -> User? {
        try db.queryOne(
            "SELECT \(userColumns) FROM users WHERE tenant_id = ? AND user_id = ?", [.text(tenantID), .text(userID)],
            StoreRecords.user)
    }

    package func user(tenantID: String, userID: String) async throws -> User? {
        try read { try Self.user(tenantID: tenantID, userID: userID, in: $0) }
    }

    package func saveUser(_ user: User) async throws {
        try await writer.write { try Self.saveUser(user, in: $0) }
    }

    package func deleteUser(
        tenantID: String, userID: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await writer.write { db in
            for authenticator in try Self.authenticators(tenantID: tenantID, userID: userID, in: db) {
                try Self.enqueue(events(authenticator), in: db)
            }
            return try db.run("DELETE FROM users WHERE tenant_id = ? AND user_id = ?", [.text(tenantID), .text(userID)]) == 1
        }
    }

    // MARK: Actions

    static let actionColumns = """
        tenant_id, idempotency_key, user_id, action_code, state, created_at, state_updated_at, verification_method, \
        ip_address, user_agent, device_id, redirect_url, custom, scope, validated_at
        """

    static func action(tenantID: String, idempotencyKey: String, in db: SQLiteConnection) throws -> Action? {
        try db.queryOne(
            "SELECT \(actionColumns) FROM actions WHERE tenant_id = ? AND idempotency_key = ?",
            [.text(tenantID), .text(idempotencyKey)], StoreRecords.action)
    }

    package func trackAction(
        _ action: Action, user: @escaping @Sendable (User?) -> User,
        decide: @escaping @Sendable (inout Action, [Authenticator]) -> Void
    ) async throws -> TrackOutcome {
        try await writer.write { db in
            let authenticators = try Self.authenticators(tenantID: action.tenantID, userID: action.userID, in: db)
            if let existing = try Self.action(tenantID: action.tenantID, idempotencyKey: action.idempotencyKey, in: db) {
                guard existing.userID == action.userID, existing.actionCode == action.actionCode else {
                    throw StoreError(.constraintViolation, "idempotency key already names another action")
                }
                return TrackOutcome(action: existing, authenticators: authenticators, created: false)
            }
            let current = try Self.user(tenantID: action.tenantID, userID: action.userID, in: db)
            try Self.saveUser(user(current), in: db)
            var decided = action
            decide(&decided, authenticators)
            try Self.insertAction(decided, in: db)
            return TrackOutcome(action: decided, authenticators: authenticators, created: true)
        }
    }

    static func insertAction(_ a: Action, in db: SQLiteConnection) throws {
        try db.run(
            "INSERT INTO actions (\(actionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [.text(a.tenantID), .text(a.idempotencyKey), .text(a.userID), .text(a.actionCode), .text(a.state.rawValue),
             .integer(a.createdAt), .integer(a.stateUpdatedAt), .optional(a.verificationMethod?.rawValue),
             .optional(a.ipAddress), .optional(a.userAgent), .optional(a.deviceID), .optional(a.redirectURL),
             encodeCustom(a.custom), .optional(a.scope), .optional(a.validatedAt)])
    }

    package func action(tenantID: String, idempotencyKey: String) async throws -> Action? {
        try read { try Self.action(tenantID: tenantID, idempotencyKey: idempotencyKey, in: $0) }
    }

    package func updateActionState(
        tenantID: String, idempotencyKey: String, state: ActionState, verificationMethod: VerificationMethod?, at: Int64
    ) async throws -> Action? {
        try await writer.write { db in
            let changed = try db.run(
                """
                UPDATE actions SET state = ?, verification_method = COALESCE(?, verification_method),
                  state_updated_at = ? WHERE tenant_id = ? AND idempotency_key = ?
                """,
                [.text(state.rawValue), .optional(verificationMethod?.rawValue), .integer(at), .text(tenantID),
                 .text(idempotencyKey)])
            guard changed == 1 else { return nil }
            return try Self.action(tenantID: tenantID, idempotencyKey: idempotencyKey, in: db)
        }
    }

    package func markActionValidated(tenantID: String, idempotencyKey: String, at: Int64) async throws -> Bool {
        try await writer.write { db in
            try db.run(
                """
                UPDATE actions SET validated_at = ?
                WHERE tenant_id = ? AND idempotency_key = ? AND validated_at IS NULL
                """,
                [.integer(at), .text(tenantID), .text(idempotencyKey)]) == 1
        }
    }

    // MARK: Authenticators

    static let authenticatorColumns = """
        id, tenant_id, user_id, verification_method, created_at, verified_at, last_verified_at, email, phone_number, \
        is_default, device_platform, device_name, public_key, push_token, expires_at, errored_at, error_code, \
        user_presence_required, user_authentication_required, authentication_timeout, authorization_type
        """

    static func authenticators(tenantID: String, userID: String, in db: SQLiteConnection) throws -> [Authenticator] {
        try db.query(
            "SELECT \(authenticatorColumns) FROM authenticators WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, id",
            [.text(tenantID), .text(userID)], StoreRecords.authenticator)
    }

    package func authenticators(tenantID: String, userID: String) async throws -> [Authenticator] {
        try read { try Self.authenticators(tenantID: tenantID, userID: userID, in: $0) }
    }

    package func insertAuthenticator(_ authenticator: Authenticator) async throws {
        try await writer.write { db in try Self.insertAuthenticator(authenticator, in: db) }
    }

    static func insertAuthenticator(_ a: Authenticator, in db: SQLiteConnection) throws {
        if try user(tenantID: a.tenantID, userID: a.userID, in: db) == nil {
            try saveUser(User(tenantID: a.tenantID, userID: a.userID, now: a.createdAt), in: db)
        }
        try db.run(
            "INSERT INTO authenticators (\(authenticatorColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            authenticatorValues(a))
    }

    static func authenticatorValues(_ a: Authenticator) -> [SQLiteValue] {
        [.text(a.id), .text(a.tenantID), .text(a.userID), .text(a.verificationMethod.rawValue),
         .integer(a.createdAt), .optional(a.verifiedAt), .optional(a.lastVerifiedAt), .optional(a.email),
         .optional(a.phoneNumber), .bool(a.isDefault), .optional(a.devicePlatform), .optional(a.deviceName),
         a.publicKey.map(SQLiteValue.blob) ?? .null, .optional(a.pushToken), .optional(a.expiresAt),
         .optional(a.erroredAt), .optional(a.errorCode), .bool(a.userPresenceRequired),
         .bool(a.userAuthenticationRequired), .optional(a.authenticationTimeout.map(Int64.init)),
         .optional(a.authorizationType)]
    }

    package func deleteAuthenticator(
        tenantID: String, userID: String, id: String, events: @escaping @Sendable (Authenticator) -> [WebhookEvent]
    ) async throws -> Bool {
        try await writer.write { db in
            guard let existing = try db.queryOne(
                "SELECT \(Self.authenticatorColumns) FROM authenticators WHERE tenant_id = ? AND user_id = ? AND id = ?",
                [.text(tenantID), .text(userID), .text(id)], StoreRecords.authenticator)
            else { return false }
            try db.run("DELETE FROM authenticators WHERE id = ?", [.text(id)])
            try Self.enqueue(events(existing), in: db)
            return true
        }
    }
}
