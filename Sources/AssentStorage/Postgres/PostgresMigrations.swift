import AssentServerCore

/// The PostgreSQL schema, as numbered steps mirroring ``SQLiteMigrations`` (same tables, columns and meanings; native
/// types: `BIGINT` for times in milliseconds, `BOOLEAN`, `BYTEA`). Step numbers follow SQLite's: step 3 is SQLite's
/// steps 1–3 in one (PostgreSQL arrived after them), and a later SQLite step N gets a PostgreSQL step N. A step is
/// never edited once released. Applied steps are rows of `assent_schema`; every step not there yet runs, in order
/// (so a lower-numbered step merged later still runs), under an advisory lock, so instances starting together take
/// turns and each step runs once.
enum PostgresMigrations {
    /// The advisory lock key held while migrating ("ASNTMIGR").
    static let lockKey: Int64 = 0x41534E544D494752

    static let steps: [(version: Int, sql: String)] = [
        (3, """
        CREATE TABLE tenants (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            secret_hash BYTEA NOT NULL UNIQUE,
            key_version BIGINT NOT NULL,
            secret_version BIGINT NOT NULL,
            settings TEXT NOT NULL,
            created_at BIGINT NOT NULL
        );
        CREATE TABLE users (
            tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL,
            email TEXT,
            email_verified BOOLEAN NOT NULL DEFAULT FALSE,
            phone_number TEXT,
            phone_number_verified BOOLEAN NOT NULL DEFAULT FALSE,
            username TEXT,
            display_name TEXT,
            locale TEXT,
            custom TEXT,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (tenant_id, user_id)
        );
        CREATE TABLE actions (
            tenant_id TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            user_id TEXT NOT NULL,
            action_code TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            state_updated_at BIGINT NOT NULL,
            verification_method TEXT,
            ip_address TEXT,
            user_agent TEXT,
            device_id TEXT,
            redirect_url TEXT,
            custom TEXT,
            scope TEXT,
            validated_at BIGINT,
            enrolled_authenticator_id TEXT,
            PRIMARY KEY (tenant_id, idempotency_key),
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        );
        CREATE INDEX actions_by_user ON actions(tenant_id, user_id, created_at);
        CREATE TABLE authenticators (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            verification_method TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            verified_at BIGINT,
            last_verified_at BIGINT,
            email TEXT,
            phone_number TEXT,
            is_default BOOLEAN NOT NULL DEFAULT FALSE,
            device_platform TEXT,
            device_name TEXT,
            public_key BYTEA,
            push_token TEXT,
            expires_at BIGINT,
            errored_at BIGINT,
            error_code TEXT,
            user_presence_required BOOLEAN NOT NULL DEFAULT FALSE,
            user_authentication_required BOOLEAN NOT NULL DEFAULT FALSE,
            authentication_timeout BIGINT,
            authorization_type TEXT,
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        );
        CREATE INDEX authenticators_by_user ON authenticators(tenant_id, user_id, created_at);
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
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            answered_at BIGINT,
            answered_by TEXT,
            verification_code TEXT,
            ip_address TEXT,
            user_agent TEXT,
            device_id TEXT,
            custom TEXT,
            device_code_hash BYTEA
        );
        CREATE INDEX challenges_pending ON challenges(tenant_id, user_id, kind, state, expires_at);
        CREATE INDEX challenges_expiry ON challenges(expires_at);
        CREATE TABLE nonces (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            authenticator_id TEXT NOT NULL REFERENCES authenticators(id) ON DELETE CASCADE,
            purpose TEXT NOT NULL,
            message TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            used_at BIGINT
        );
        CREATE INDEX nonces_by_authenticator ON nonces(authenticator_id, purpose, created_at);
        CREATE INDEX nonces_expiry ON nonces(expires_at);
        CREATE TABLE webhook_outbox (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            next_attempt_at BIGINT NOT NULL,
            attempts BIGINT NOT NULL DEFAULT 0,
            delivered_at BIGINT,
            failed_at BIGINT,
            last_error TEXT
        );
        CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
        """),
        (4, """
        CREATE TABLE powerauth_applications (
            tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
            application_key TEXT NOT NULL UNIQUE,
            application_secret TEXT NOT NULL,
            master_public_key BYTEA NOT NULL,
            master_private_key_sealed BYTEA NOT NULL,
            created_at BIGINT NOT NULL
        );
        CREATE TABLE activations (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT,
            status TEXT NOT NULL,
            blocked_reason TEXT,
            device_public_key BYTEA NOT NULL,
            server_public_key BYTEA NOT NULL,
            master_secret_sealed BYTEA NOT NULL,
            ctr BIGINT NOT NULL,
            ctr_data BYTEA NOT NULL,
            failed_attempts BIGINT NOT NULL,
            fingerprint TEXT NOT NULL,
            enrolment_key TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            last_used_at BIGINT,
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
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            next_attempt_at BIGINT NOT NULL,
            attempts BIGINT NOT NULL DEFAULT 0,
            state TEXT NOT NULL,
            claimed_until BIGINT,
            finished_at BIGINT,
            last_error TEXT
        );
        CREATE INDEX push_deliveries_due ON push_deliveries(next_attempt_at) WHERE state = 'queued';
        CREATE INDEX push_deliveries_by_challenge ON push_deliveries(challenge_id);
        CREATE TABLE challenge_timeline (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            challenge_id TEXT NOT NULL,
            at BIGINT NOT NULL,
            event TEXT NOT NULL,
            authenticator_id TEXT,
            provider TEXT,
            attempt BIGINT,
            status BIGINT,
            detail TEXT
        );
        CREATE INDEX challenge_timeline_by_challenge ON challenge_timeline(challenge_id, id);
        CREATE INDEX challenge_timeline_by_time ON challenge_timeline(at);
        """),
        (6, """
        ALTER TABLE actions ADD COLUMN location TEXT;
        """),
    ]

    /// Applies every step the database has not had, each in its own transaction, holding the advisory lock
    /// throughout. Refuses a database with a step this build does not know (it comes from a newer `assentd`).
    /// Returns the versions applied.
    @discardableResult
    static func apply(to connection: PostgresConnection) throws -> [Int] {
        try connection.execute("SELECT pg_advisory_lock(\(lockKey))")
        defer { try? connection.execute("SELECT pg_advisory_unlock(\(lockKey))") }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS assent_schema (
                version BIGINT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """)
        let done = Set(try connection.query("SELECT version FROM assent_schema") { Int($0.int64(0)) })
        if let unknown = done.subtracting(steps.map(\.version)).max() {
            throw StoreError(.migrationFailed, "the database has schema step \(unknown), which this assentd does not know (it is newer)")
        }
        var applied: [Int] = []
        for step in steps.sorted(by: { $0.version < $1.version }) where !done.contains(step.version) {
            do {
                try connection.execute("BEGIN")
                try connection.execute(step.sql)
                try connection.execute("INSERT INTO assent_schema (version) VALUES (\(step.version))")
                try connection.execute("COMMIT")
                applied.append(step.version)
            } catch {
                try? connection.execute("ROLLBACK")
                throw StoreError(.migrationFailed, "migration \(step.version): \(error)")
            }
        }
        return applied
    }
}
