/// The schema, as numbered steps. A step is never edited once released; changes are new steps.
enum SQLiteMigrations {
    static let steps: [(version: Int, sql: String)] = [
        (1, """
        CREATE TABLE tenants (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            secret_hash BLOB NOT NULL UNIQUE,
            key_version INTEGER NOT NULL,
            secret_version INTEGER NOT NULL,
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
        (2, """
        ALTER TABLE authenticators ADD COLUMN user_presence_required INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE authenticators ADD COLUMN user_authentication_required INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE authenticators ADD COLUMN authentication_timeout INTEGER;
        ALTER TABLE authenticators ADD COLUMN authorization_type TEXT;
        CREATE UNIQUE INDEX authenticators_by_key ON authenticators(tenant_id, verification_method, public_key)
            WHERE public_key IS NOT NULL;
        CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            user_id TEXT,
            action_code TEXT,
            idempotency_key TEXT,
            target_authenticator_id TEXT,
            state TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            answered_at INTEGER,
            answered_by TEXT,
            verification_code TEXT,
            ip_address TEXT,
            user_agent TEXT,
            device_id TEXT,
            custom TEXT,
            device_code_hash BLOB
        );
        CREATE INDEX challenges_pending ON challenges(tenant_id, user_id, kind, state, expires_at);
        CREATE TABLE nonces (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            authenticator_id TEXT NOT NULL REFERENCES authenticators(id) ON DELETE CASCADE,
            purpose TEXT NOT NULL,
            message TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            used_at INTEGER
        );
        CREATE INDEX nonces_by_authenticator ON nonces(authenticator_id, purpose, created_at);
        CREATE TABLE webhook_outbox (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            delivered_at INTEGER,
            failed_at INTEGER,
            last_error TEXT
        );
        CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
        """),
        (3, """
        ALTER TABLE actions ADD COLUMN enrolled_authenticator_id TEXT;
        CREATE INDEX challenges_expiry ON challenges(expires_at);
        """),
        (4, """
        CREATE TABLE powerauth_applications (
            tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
            application_key TEXT NOT NULL UNIQUE,
            application_secret TEXT NOT NULL,
            master_public_key BLOB NOT NULL,
            master_private_key_sealed BLOB NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE activations (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT,
            status TEXT NOT NULL,
            blocked_reason TEXT,
            device_public_key BLOB NOT NULL,
            server_public_key BLOB NOT NULL,
            master_secret_sealed BLOB NOT NULL,
            ctr INTEGER NOT NULL,
            ctr_data BLOB NOT NULL,
            failed_attempts INTEGER NOT NULL,
            fingerprint TEXT NOT NULL,
            enrolment_key TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            last_used_at INTEGER,
            UNIQUE (tenant_id, enrolment_key),
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        );
        CREATE INDEX activations_by_user ON activations(tenant_id, user_id, created_at);
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
