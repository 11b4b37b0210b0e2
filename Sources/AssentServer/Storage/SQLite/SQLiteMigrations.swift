/// The schema, as numbered steps. A step is never edited once released; changes are new steps.
enum SQLiteMigrations {
    static let steps: [(version: Int, sql: String)] = [
        (1, """
        CREATE TABLE tenants (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            secret_hash BLOB NOT NULL UNIQUE,
            key_version INTEGER NOT NULL,
            settings TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE users (
            tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL,
            email TEXT,
            email_verified INTEGER NOT NULL DEFAULT 0,
            phone_number TEXT,
            phone_number_verified INTEGER NOT NULL DEFAULT 0,
            username TEXT,
            display_name TEXT,
            locale TEXT,
            custom TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (tenant_id, user_id)
        ) WITHOUT ROWID;
        CREATE TABLE actions (
            tenant_id TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            user_id TEXT NOT NULL,
            action_code TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            state_updated_at INTEGER NOT NULL,
            verification_method TEXT,
            ip_address TEXT,
            user_agent TEXT,
            device_id TEXT,
            redirect_url TEXT,
            custom TEXT,
            scope TEXT,
            validated_at INTEGER,
            PRIMARY KEY (tenant_id, idempotency_key),
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX actions_by_user ON actions(tenant_id, user_id, created_at);
        CREATE TABLE authenticators (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            verification_method TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            verified_at INTEGER,
            last_verified_at INTEGER,
            email TEXT,
            phone_number TEXT,
            is_default INTEGER NOT NULL DEFAULT 0,
            device_platform TEXT,
            device_name TEXT,
            public_key BLOB,
            push_token TEXT,
            expires_at INTEGER,
            errored_at INTEGER,
            error_code TEXT,
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        );
        CREATE INDEX authenticators_by_user ON authenticators(tenant_id, user_id, created_at);
        """),
    ]

    /// Applies every step newer than the database's `user_version`, each in its own transaction.
    static func apply(to connection: SQLiteConnection) throws {
        let current = try connection.queryOne("PRAGMA user_version") { $0.int64(0) } ?? 0
        for step in steps where step.version > current {
            do {
                try connection.execute("BEGIN IMMEDIATE")
                try connection.execute(step.sql)
                try connection.execute("PRAGMA user_version = \(step.version)")
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw StoreError(.migrationFailed, "migration \(step.version): \(error)")
            }
        }
        if let latest = steps.last?.version, current > latest {
            throw StoreError(.migrationFailed, "the database is at schema \(current), newer than this assentd (\(latest))")
        }
    }
}
