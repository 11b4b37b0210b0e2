import AssentServerCore

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
        (5, """
        CREATE TABLE push_deliveries (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            challenge_id TEXT NOT NULL,
            authenticator_id TEXT NOT NULL,
            provider TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL,
            claimed_until INTEGER,
            finished_at INTEGER,
            last_error TEXT
        );
        CREATE INDEX push_deliveries_due ON push_deliveries(next_attempt_at) WHERE state = 'queued';
        CREATE INDEX push_deliveries_by_challenge ON push_deliveries(challenge_id);
        CREATE TABLE challenge_timeline (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant_id TEXT NOT NULL,
            challenge_id TEXT NOT NULL,
            at INTEGER NOT NULL,
            event TEXT NOT NULL,
            authenticator_id TEXT,
            provider TEXT,
            attempt INTEGER,
            status INTEGER,
            detail TEXT
        );
        CREATE INDEX challenge_timeline_by_challenge ON challenge_timeline(challenge_id, id);
        CREATE INDEX challenge_timeline_by_time ON challenge_timeline(at);
        """),
        (6, """
        ALTER TABLE actions ADD COLUMN location TEXT;
        """),
    ]

    /// Applies every step the database has not had yet, in order, each in its own transaction, and records it in
    /// `schema_steps` (the `user_version` pragma keeps the highest applied number). Numbers need not be contiguous
    /// and a step numbered below one already applied still runs: branches reserve numbers (4 is the PowerAuth
    /// activations', 5 push delivery's), and a database made before a lower-numbered step was merged gets it later.
    /// A database that has a step this build does not know is refused (it comes from a newer `assentd`).
    static func apply(to connection: SQLiteConnection, steps: [(version: Int, sql: String)] = steps) throws {
        let current = try connection.queryOne("PRAGMA user_version") { $0.int64(0) } ?? 0
        try connection.execute("CREATE TABLE IF NOT EXISTS schema_steps (version INTEGER PRIMARY KEY)")
        var applied = Set(try connection.query("SELECT version FROM schema_steps") { Int($0.int64(0)) })
        if applied.isEmpty, current > 0 {
            // Databases from before `schema_steps` had every step up to their user_version.
            applied = Set(steps.map(\.version).filter { $0 <= current })
            for version in applied.sorted() {
                try connection.execute("INSERT INTO schema_steps (version) VALUES (\(version))")
            }
        }
        let known = Set(steps.map(\.version))
        if let unknown = applied.subtracting(known).max() ?? (current > (known.max() ?? 0) ? Int(current) : nil) {
            throw StoreError(
                .migrationFailed, "the database has schema step \(unknown), which this assentd does not know (it is newer)")
        }
        for step in steps.sorted(by: { $0.version < $1.version }) where !applied.contains(step.version) {
            do {
                try connection.execute("BEGIN IMMEDIATE")
                try connection.execute(step.sql)
                try connection.execute("INSERT INTO schema_steps (version) VALUES (\(step.version))")
                let highest = max(Int(current), (applied.max() ?? 0), step.version)
                try connection.execute("PRAGMA user_version = \(highest)")
                try connection.execute("COMMIT")
                applied.insert(step.version)
            } catch {
                try? connection.execute("ROLLBACK")
                throw StoreError(.migrationFailed, "migration \(step.version): \(error)")
            }
        }
    }
}
