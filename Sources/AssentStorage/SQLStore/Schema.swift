import AssentServerCore

/// The schema's text, written once for both dialects: the same tables, columns, indexes and meanings, in each
/// dialect's types — ``integer`` (`INTEGER`, `BIGINT`: counts, and times in milliseconds), ``bytes`` (`BLOB`,
/// `BYTEA`), ``boolean`` (SQLite's `INTEGER` 0 or 1, `BOOLEAN`). ``SQLiteMigrations`` and ``PostgresMigrations`` number
/// their steps from these pieces. A released step's text never changes: SQLite got the first tables in three steps
/// (1–3), PostgreSQL, which arrived after them, in one (its step 3) — so ``actions`` and ``authenticators`` carry, for
/// PostgreSQL only, the columns SQLite's steps 2 and 3 added later (``sqliteStep2`` and ``sqliteStep3``).
enum Schema {
    static let integer: SQL = "\(sqlite: "INTEGER", postgres: "BIGINT")"
    static let bytes: SQL = "\(sqlite: "BLOB", postgres: "BYTEA")"
    static let boolean: SQL = "\(sqlite: "INTEGER", postgres: "BOOLEAN")"
    static let `false`: SQL = "\(sqlite: "0", postgres: "FALSE")"

    static let tenants: SQL = """
        CREATE TABLE tenants (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            secret_hash \(bytes) NOT NULL UNIQUE,
            key_version \(integer) NOT NULL,
            secret_version \(integer) NOT NULL,
            settings TEXT NOT NULL,
            created_at \(integer) NOT NULL
        );
        """
    static let users: SQL = """
        CREATE TABLE users (
            tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL,
            email TEXT,
            email_verified \(boolean) NOT NULL DEFAULT \(`false`),
            phone_number TEXT,
            phone_number_verified \(boolean) NOT NULL DEFAULT \(`false`),
            username TEXT,
            display_name TEXT,
            locale TEXT,
            custom TEXT,
            created_at \(integer) NOT NULL,
            updated_at \(integer) NOT NULL,
            PRIMARY KEY (tenant_id, user_id)
        )\(sqlite: " WITHOUT ROWID");
        """
    static let actions: SQL = """
        CREATE TABLE actions (
            tenant_id TEXT NOT NULL,
            idempotency_key TEXT NOT NULL,
            user_id TEXT NOT NULL,
            action_code TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            state_updated_at \(integer) NOT NULL,
            verification_method TEXT,
            ip_address TEXT,
            user_agent TEXT,
            device_id TEXT,
            redirect_url TEXT,
            custom TEXT,
            scope TEXT,
            validated_at \(integer),\(postgres: "\n    enrolled_authenticator_id TEXT,")
            PRIMARY KEY (tenant_id, idempotency_key),
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        )\(sqlite: " WITHOUT ROWID");
        CREATE INDEX actions_by_user ON actions(tenant_id, user_id, created_at);
        """
    /// The key-use policy columns SQLite's step 2 added to ``authenticators``.
    static let keyPolicyColumns: [(name: String, type: SQL)] = [
        ("user_presence_required", "\(boolean) NOT NULL DEFAULT \(`false`)"),
        ("user_authentication_required", "\(boolean) NOT NULL DEFAULT \(`false`)"),
        ("authentication_timeout", integer), ("authorization_type", "TEXT"),
    ]
    static let authenticators: SQL = """
        CREATE TABLE authenticators (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            verification_method TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            verified_at \(integer),
            last_verified_at \(integer),
            email TEXT,
            phone_number TEXT,
            is_default \(boolean) NOT NULL DEFAULT \(`false`),
            device_platform TEXT,
            device_name TEXT,
            public_key \(bytes),
            push_token TEXT,
            expires_at \(integer),
            errored_at \(integer),
            error_code TEXT,\(postgres: keyPolicyColumns.map { "\n    \($0.name) \($0.type.postgres)," }.joined())
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        );
        CREATE INDEX authenticators_by_user ON authenticators(tenant_id, user_id, created_at);
        """
    static let authenticatorsByKey: SQL = """
        CREATE UNIQUE INDEX authenticators_by_key ON authenticators(tenant_id, verification_method, public_key)
            WHERE public_key IS NOT NULL;
        """
    static let challenges: SQL = """
        CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            user_id TEXT,
            action_code TEXT,
            idempotency_key TEXT,
            target_authenticator_id TEXT,
            state TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            expires_at \(integer) NOT NULL,
            answered_at \(integer),
            answered_by TEXT,
            verification_code TEXT,
            ip_address TEXT,
            user_agent TEXT,
            device_id TEXT,
            custom TEXT,
            device_code_hash \(bytes)
        );
        CREATE INDEX challenges_pending ON challenges(tenant_id, user_id, kind, state, expires_at);
        """
    static let challengesExpiry: SQL = "CREATE INDEX challenges_expiry ON challenges(expires_at);"
    static let nonces: SQL = """
        CREATE TABLE nonces (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            authenticator_id TEXT NOT NULL REFERENCES authenticators(id) ON DELETE CASCADE,
            purpose TEXT NOT NULL,
            message TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            expires_at \(integer) NOT NULL,
            used_at \(integer)
        );
        CREATE INDEX nonces_by_authenticator ON nonces(authenticator_id, purpose, created_at);
        """
    static let webhookOutbox: SQL = """
        CREATE TABLE webhook_outbox (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            next_attempt_at \(integer) NOT NULL,
            attempts \(integer) NOT NULL DEFAULT 0,
            delivered_at \(integer),
            failed_at \(integer),
            last_error TEXT
        );
        CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
        """

    /// SQLite's step 1: the first tables.
    static let sqliteStep1 = SQL.lines([tenants, users, actions, authenticators]).sqlite
    /// SQLite's step 2: the key-use policy, challenges, nonces, the webhook outbox.
    static let sqliteStep2 = SQL.lines(
        [SQL(keyPolicyColumns.map { "ALTER TABLE authenticators ADD COLUMN \($0.name) \($0.type.sqlite);" }
            .joined(separator: "\n")),
         authenticatorsByKey, challenges, nonces, webhookOutbox]).sqlite
    /// SQLite's step 3: which key an enrolment token enrolled; challenges by expiry.
    static let sqliteStep3 = """
        ALTER TABLE actions ADD COLUMN enrolled_authenticator_id TEXT;
        \(challengesExpiry.sqlite)
        """
    /// PostgreSQL's step 3: SQLite's steps 1–3 in one, and nonces by expiry.
    static let postgresStep3 = SQL.lines([
        tenants, users, actions, authenticators, authenticatorsByKey, challenges, challengesExpiry, nonces,
        "CREATE INDEX nonces_expiry ON nonces(expires_at);", webhookOutbox,
    ]).postgres

    /// Step 6: the location the backend tracked with an action, shown to the device that claims its QR challenge.
    static let actionLocation: SQL = "ALTER TABLE actions ADD COLUMN location TEXT;"

    /// Step 7: each user's push-bombing state (``PushGuard``): consecutive failed pushes, the throttle they cause,
    /// the fraud lock, and up to when expired push challenges were counted. `recent_failures` holds the newest
    /// failures' times, comma-separated.
    static let pushGuards: SQL = """
        CREATE TABLE push_guards (
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            recent_failures TEXT NOT NULL,
            consecutive_failures \(integer) NOT NULL,
            throttle_level \(integer) NOT NULL,
            throttled_until \(integer),
            locked_until \(integer),
            counted_through \(integer) NOT NULL,
            updated_at \(integer) NOT NULL,
            PRIMARY KEY (tenant_id, user_id)
        )\(sqlite: " WITHOUT ROWID");
        """

    /// Step 8: whether a challenge was opened anonymously (its context is the caller's, not the tenant's).
    static let challengeAnonymous: SQL = "ALTER TABLE challenges ADD COLUMN anonymous \(boolean) NOT NULL DEFAULT \(`false`);"

    /// Step 4: PowerAuth applications and activations.
    static let powerAuth: SQL = """
        CREATE TABLE powerauth_applications (
            tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
            application_key TEXT NOT NULL UNIQUE,
            application_secret TEXT NOT NULL,
            master_public_key \(bytes) NOT NULL,
            master_private_key_sealed \(bytes) NOT NULL,
            created_at \(integer) NOT NULL
        );
        CREATE TABLE activations (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT,
            status TEXT NOT NULL,
            blocked_reason TEXT,
            device_public_key \(bytes) NOT NULL,
            server_public_key \(bytes) NOT NULL,
            master_secret_sealed \(bytes) NOT NULL,
            ctr \(integer) NOT NULL,
            ctr_data \(bytes) NOT NULL,
            failed_attempts \(integer) NOT NULL,
            fingerprint TEXT NOT NULL,
            enrolment_key TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            updated_at \(integer) NOT NULL,
            last_used_at \(integer),
            UNIQUE (tenant_id, enrolment_key),
            FOREIGN KEY (tenant_id, user_id) REFERENCES users(tenant_id, user_id) ON DELETE CASCADE
        );
        CREATE INDEX activations_by_user ON activations(tenant_id, user_id, created_at);
        """

    /// Step 5: the push delivery queue and the challenge timeline.
    static let pushDelivery: SQL = """
        CREATE TABLE push_deliveries (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            challenge_id TEXT NOT NULL,
            authenticator_id TEXT NOT NULL,
            provider TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            expires_at \(integer) NOT NULL,
            next_attempt_at \(integer) NOT NULL,
            attempts \(integer) NOT NULL DEFAULT 0,
            state TEXT NOT NULL,
            claimed_until \(integer),
            finished_at \(integer),
            last_error TEXT
        );
        CREATE INDEX push_deliveries_due ON push_deliveries(next_attempt_at) WHERE state = 'queued';
        CREATE INDEX push_deliveries_by_challenge ON push_deliveries(challenge_id);
        CREATE TABLE challenge_timeline (
            id \(sqlite: "INTEGER PRIMARY KEY AUTOINCREMENT", postgres: "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
            tenant_id TEXT NOT NULL,
            challenge_id TEXT NOT NULL,
            at \(integer) NOT NULL,
            event TEXT NOT NULL,
            authenticator_id TEXT,
            provider TEXT,
            attempt \(integer),
            status \(integer),
            detail TEXT
        );
        CREATE INDEX challenge_timeline_by_challenge ON challenge_timeline(challenge_id, id);
        CREATE INDEX challenge_timeline_by_time ON challenge_timeline(at);
        """

    /// Step 9: the signature scheme a device credential enrolled with (Authsignal's messages, or Assent's bound ones),
    /// and the removal signatures already spent, kept until their window lapses so none removes twice — not a
    /// re-enrolled credential, nor the key's credential of the other kind. A digest names the signature: once of
    /// tenant, key and the signature's `r`; now also (`DeviceKey.digest(ofVerified:)`) of key and `r` alone, so a
    /// signature spent in one tenant is spent in all. The table did not change; what is recorded in it did.
    static let boundSignatures: SQL = """
        ALTER TABLE authenticators ADD COLUMN signature_scheme TEXT NOT NULL DEFAULT 'compatible';
        CREATE TABLE spent_signatures (
            digest \(bytes) PRIMARY KEY,
            expires_at \(integer) NOT NULL
        );
        CREATE INDEX spent_signatures_expiry ON spent_signatures(expires_at);
        """

    /// Step 10: where counting for the metrics stopped — `challenges_expired` is the moment up to which expired,
    /// unanswered challenges have been counted (``MetricsStore/countExpiredChallenges(through:)``), so each expiry is
    /// counted once across instances and the sweeper deletes no anonymous QR challenge before it was counted.
    static let metricWatermarks: SQL = """
        CREATE TABLE metric_watermarks (
            name TEXT PRIMARY KEY,
            through \(integer) NOT NULL
        );
        """

    /// Step 12: each tenant's append-only audit chain (``AuditChain``): one row per entry, numbered from 1 per tenant,
    /// each with its HMAC over the previous entry's MAC and its own content. No foreign key to `tenants`: the record
    /// is meant to outlive what it describes.
    static let auditEntries: SQL = """
        CREATE TABLE audit_entries (
            tenant_id TEXT NOT NULL,
            sequence \(integer) NOT NULL,
            at \(integer) NOT NULL,
            kind TEXT NOT NULL,
            actor TEXT NOT NULL,
            subject TEXT NOT NULL,
            details TEXT NOT NULL,
            mac \(bytes) NOT NULL,
            PRIMARY KEY (tenant_id, sequence)
        )\(sqlite: " WITHOUT ROWID");
        CREATE INDEX audit_entries_by_time ON audit_entries(tenant_id, at);
        """

    /// Step 11: the admin console's admin tokens (stored only hashed) and server-side sessions (their ids stored only
    /// hashed), both deleted with their tenant; sessions are swept once ended.
    /// Step 16: indexes for the sweeps, so each finds what it deletes without reading anything else — the
    /// anonymous QR challenges no device claimed (a partial index: only those rows, however many challenges the day
    /// keeps for their timelines), push deliveries by when they finished or expire, outbox events by when they
    /// were done with, and (on SQLite, which had none; PostgreSQL's came with step 3) nonces by expiry.
    static let sweepIndexes: SQL = """
        CREATE INDEX challenges_unclaimed_qr ON challenges(expires_at)
            WHERE kind = 'qr' AND state = 'pending' AND user_id IS NULL;
        CREATE INDEX push_deliveries_finished ON push_deliveries(finished_at) WHERE state <> 'queued';
        CREATE INDEX push_deliveries_expiry ON push_deliveries(expires_at);
        CREATE INDEX webhook_outbox_done ON webhook_outbox(COALESCE(delivered_at, failed_at));
        CREATE INDEX IF NOT EXISTS nonces_expiry ON nonces(expires_at);
        """

    static let console: SQL = """
        CREATE TABLE admin_tokens (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            token_hash \(bytes) NOT NULL UNIQUE,
            name TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            expires_at \(integer) NOT NULL
        );
        CREATE INDEX admin_tokens_tenant ON admin_tokens(tenant_id, created_at);
        CREATE TABLE console_sessions (
            id_hash \(bytes) PRIMARY KEY,
            tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
            principal TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            last_seen_at \(integer) NOT NULL,
            idle_expires_at \(integer) NOT NULL,
            expires_at \(integer) NOT NULL
        );
        CREATE INDEX console_sessions_idle_expiry ON console_sessions(idle_expires_at);
        CREATE INDEX console_sessions_expiry ON console_sessions(expires_at);
        CREATE INDEX console_sessions_principal ON console_sessions(principal);
        """
    /// Step 17: a console session ends with what signed it in. `secret_version` is the tenant's secret version a
    /// secret-key session signed in with (NULL for an admin token's), compared with the tenant's on every use, so
    /// rotating the key ends its sessions. Secret-key sessions from before this step recorded no version and are
    /// ended here (their browsers sign in again); admin-token sessions are cut to their token's expiry, which a
    /// session no longer outlives.
    static let consoleSessionOrigins: SQL = """
        ALTER TABLE console_sessions ADD COLUMN secret_version \(integer);
        DELETE FROM console_sessions WHERE principal = 'secret-key';
        UPDATE console_sessions SET expires_at = (
            SELECT t.expires_at FROM admin_tokens t WHERE 'admin-token:' || t.id = console_sessions.principal)
        WHERE EXISTS (
            SELECT 1 FROM admin_tokens t
            WHERE 'admin-token:' || t.id = console_sessions.principal AND t.expires_at < console_sessions.expires_at);
        """

    /// Step 14: the admin console overview's counters (``OverviewStore``). `overview_minutes` holds each tenant's
    /// challenge counts per minute and kind, added to by every instance's batches (recorded in `overview_flushes`, so
    /// a batch sent again adds nothing) and by the expiry count; both kept two days. `overview_totals` holds each
    /// tenant's totals by name, changed by triggers in the transaction that inserts or deletes a user, authenticator
    /// or activation (cascades too) or changes an activation's status. On PostgreSQL a trigger appends a row to
    /// `overview_total_changes` — an append, not an update of a shared row, so concurrent enrolments on several
    /// instances do not wait on each other — and a background fold adds them up into `overview_totals`; SQLite's
    /// single writer serialises every write anyway, so its triggers add to `overview_totals` directly. The totals of
    /// a database made before this step are counted here, once: on PostgreSQL after the triggers exist, whose
    /// creation holds off writes to their tables until this step commits.
    static let overviewTables: SQL = """
        CREATE TABLE overview_minutes (
            tenant_id TEXT NOT NULL,
            minute \(integer) NOT NULL,
            kind TEXT NOT NULL,
            started \(integer) NOT NULL,
            approved \(integer) NOT NULL,
            denied \(integer) NOT NULL,
            expired \(integer) NOT NULL,
            PRIMARY KEY (tenant_id, minute, kind)
        )\(sqlite: " WITHOUT ROWID");
        CREATE INDEX overview_minutes_by_minute ON overview_minutes(minute);
        CREATE TABLE overview_flushes (
            instance TEXT NOT NULL,
            sequence \(integer) NOT NULL,
            at \(integer) NOT NULL,
            PRIMARY KEY (instance, sequence)
        )\(sqlite: " WITHOUT ROWID");
        CREATE INDEX overview_flushes_by_time ON overview_flushes(at);
        CREATE TABLE overview_totals (
            tenant_id TEXT NOT NULL,
            name TEXT NOT NULL,
            value \(integer) NOT NULL,
            PRIMARY KEY (tenant_id, name)
        )\(sqlite: " WITHOUT ROWID");
        CREATE TABLE overview_total_changes (
            id \(sqlite: "INTEGER PRIMARY KEY AUTOINCREMENT", postgres: "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
            tenant_id TEXT NOT NULL,
            name TEXT NOT NULL,
            delta \(integer) NOT NULL
        );
        """
    /// Step 14's triggers in SQLite (which also fire for rows a foreign key's `ON DELETE CASCADE` deletes). SQLite
    /// has one writer at a time, so a trigger adds to the totals row itself: a shared row holds no one up that the
    /// writer did not already, and an in-place update is cheaper than appending a change row (bulk seeding).
    static let overviewTriggersSQLite: String = {
        func add(_ tenant: String, _ name: String, _ delta: Int) -> String {
            """
              INSERT INTO overview_totals (tenant_id, name, value) VALUES (\(tenant), \(name), \(delta))
              ON CONFLICT (tenant_id, name) DO UPDATE SET value = value + excluded.value;
            """
        }
        /// The two triggers counting `table`'s rows into the total `name` gives for a row (`NEW` or `OLD`).
        func counted(_ trigger: String, _ table: String, _ name: (String) -> String) -> String {
            """
            CREATE TRIGGER overview_\(trigger)_added AFTER INSERT ON \(table) BEGIN
            \(add("NEW.tenant_id", name("NEW"), 1))
            END;
            CREATE TRIGGER overview_\(trigger)_removed AFTER DELETE ON \(table) BEGIN
            \(add("OLD.tenant_id", name("OLD"), -1))
            END;
            """
        }
        return """
            \(counted("user", "users") { _ in "'users'" })
            \(counted("authenticator", "authenticators") { "'authenticators:' || \($0).verification_method" })
            \(counted("activation", "activations") { "'activations:' || \($0).status" })
            CREATE TRIGGER overview_activation_status AFTER UPDATE OF status ON activations WHEN OLD.status IS NOT NEW.status BEGIN
            \(add("OLD.tenant_id", "'activations:' || OLD.status", -1))
            \(add("NEW.tenant_id", "'activations:' || NEW.status", 1))
            END;
            """
    }()
    /// Step 14's triggers in PostgreSQL: one function per table, called for each row inserted, deleted (cascades too)
    /// or — activations — whose status changed.
    static let overviewTriggersPostgres = """
        CREATE FUNCTION assent_overview_user() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            INSERT INTO overview_total_changes (tenant_id, name, delta) VALUES (NEW.tenant_id, 'users', 1);
          ELSE
            INSERT INTO overview_total_changes (tenant_id, name, delta) VALUES (OLD.tenant_id, 'users', -1);
          END IF;
          RETURN NULL;
        END
        $$;
        CREATE TRIGGER overview_user AFTER INSERT OR DELETE ON users
          FOR EACH ROW EXECUTE FUNCTION assent_overview_user();
        CREATE FUNCTION assent_overview_authenticator() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            INSERT INTO overview_total_changes (tenant_id, name, delta)
            VALUES (NEW.tenant_id, 'authenticators:' || NEW.verification_method, 1);
          ELSE
            INSERT INTO overview_total_changes (tenant_id, name, delta)
            VALUES (OLD.tenant_id, 'authenticators:' || OLD.verification_method, -1);
          END IF;
          RETURN NULL;
        END
        $$;
        CREATE TRIGGER overview_authenticator AFTER INSERT OR DELETE ON authenticators
          FOR EACH ROW EXECUTE FUNCTION assent_overview_authenticator();
        CREATE FUNCTION assent_overview_activation() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP <> 'INSERT' THEN
            INSERT INTO overview_total_changes (tenant_id, name, delta) VALUES (OLD.tenant_id, 'activations:' || OLD.status, -1);
          END IF;
          IF TG_OP <> 'DELETE' THEN
            INSERT INTO overview_total_changes (tenant_id, name, delta) VALUES (NEW.tenant_id, 'activations:' || NEW.status, 1);
          END IF;
          RETURN NULL;
        END
        $$;
        CREATE TRIGGER overview_activation AFTER INSERT OR DELETE ON activations
          FOR EACH ROW EXECUTE FUNCTION assent_overview_activation();
        CREATE TRIGGER overview_activation_status AFTER UPDATE OF status ON activations
          FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION assent_overview_activation();
        """
    /// Step 14's first totals, counted once from the tables.
    static let overviewInitialTotals: SQL = """
        INSERT INTO overview_totals (tenant_id, name, value)
          SELECT tenant_id, 'users', COUNT(*) FROM users GROUP BY tenant_id;
        INSERT INTO overview_totals (tenant_id, name, value)
          SELECT tenant_id, 'authenticators:' || verification_method, COUNT(*) FROM authenticators
          GROUP BY tenant_id, verification_method;
        INSERT INTO overview_totals (tenant_id, name, value)
          SELECT tenant_id, 'activations:' || status, COUNT(*) FROM activations GROUP BY tenant_id, status;
        """
    static let overviewStep: SQL = .lines([
        overviewTables, SQL(sqlite: overviewTriggersSQLite, postgres: overviewTriggersPostgres), overviewInitialTotals,
    ])

    /// Step 18: the challenges device attestations commit to (``AttestationChallenge``), each issued to one user of a
    /// tenant and spent by the one enrolment that uses it (`spent_at` set under `WHERE spent_at IS NULL`, so a second
    /// use from any instance finds it spent). No foreign key: a challenge names a user who may not exist yet; swept once expired.
    static let attestationChallenges: SQL = """
        CREATE TABLE attestation_challenges (
            challenge TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            created_at \(integer) NOT NULL,
            expires_at \(integer) NOT NULL,
            spent_at \(integer)
        )\(sqlite: " WITHOUT ROWID");
        CREATE INDEX attestation_challenges_expiry ON attestation_challenges(expires_at);
        """

    /// Step 19: a device credential's attestation — the verdict as compact JSON (``CredentialAttestation``), and for App
    /// Attest the key id (unique: one App Attest key vouches for one credential), the attested key and the counter of
    /// the last assertion.
    static let authenticatorAttestation: SQL = """
        ALTER TABLE authenticators ADD COLUMN attestation TEXT;
        ALTER TABLE authenticators ADD COLUMN app_attest_key_id \(bytes);
        ALTER TABLE authenticators ADD COLUMN app_attest_public_key \(bytes);
        ALTER TABLE authenticators ADD COLUMN app_attest_counter \(integer);
        CREATE UNIQUE INDEX authenticators_app_attest_key ON authenticators(app_attest_key_id)
            WHERE app_attest_key_id IS NOT NULL;
        """

    /// Step 20: a PowerAuth activation's App Attest attestation, as step 19 gave device credentials — the verdict as
    /// compact JSON (``CredentialAttestation``), the key id (unique: one App Attest key vouches for one activation;
    /// credentials of the other kind are checked in the enrolling transaction), the attested key and the counter.
    static let activationAttestation: SQL = """
        ALTER TABLE activations ADD COLUMN attestation TEXT;
        ALTER TABLE activations ADD COLUMN app_attest_key_id \(bytes);
        ALTER TABLE activations ADD COLUMN app_attest_public_key \(bytes);
        ALTER TABLE activations ADD COLUMN app_attest_counter \(integer);
        CREATE UNIQUE INDEX activations_app_attest_key ON activations(app_attest_key_id)
            WHERE app_attest_key_id IS NOT NULL;
        """

    /// Step 21: the master key ring version each tenant's secret key was derived from (``MasterKeyRing``). Every
    /// secret made before rings existed came from the one master key, which is version 1.
    static let tenantSecretKeyRingVersion: SQL = """
        ALTER TABLE tenants ADD COLUMN secret_key_ring_version \(integer) NOT NULL DEFAULT 1;
        """

    /// Step 22: the authentication history (``SignInHistoryStore``): one compact row per sign-in attempt's outcome,
    /// kept for the tenant's retention, numbered in insertion order (SQLite's rowid, PostgreSQL's identity) so a
    /// cursor can name a row within its millisecond. No foreign keys: a row outlives its challenge (swept after a
    /// day) and is deleted with its user by the user's erasure. The indexes serve the pages newest first — the
    /// tenant's by time, and by user, action or outcome then time — and the retention sweep (by time).
    static let signInHistory: SQL = """
        CREATE TABLE sign_in_history (
            id \(sqlite: "INTEGER PRIMARY KEY", postgres: "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
            tenant_id TEXT NOT NULL,
            at \(integer) NOT NULL,
            user_id TEXT NOT NULL,
            action_code TEXT,
            method TEXT NOT NULL,
            factor TEXT,
            credential_id TEXT,
            outcome TEXT NOT NULL,
            reason TEXT,
            ip_address TEXT,
            user_agent TEXT,
            verification_ms \(integer),
            challenge_id TEXT
        );
        CREATE INDEX sign_in_history_by_time ON sign_in_history(tenant_id, at, id);
        CREATE INDEX sign_in_history_by_user ON sign_in_history(tenant_id, user_id, at, id);
        CREATE INDEX sign_in_history_by_action ON sign_in_history(tenant_id, action_code, at, id);
        CREATE INDEX sign_in_history_by_outcome ON sign_in_history(tenant_id, outcome, at, id);
        """

    /// Step 15, PostgreSQL only: the users of a tenant in byte order of their ids, for the console's prefix search
    /// (``UserDirectoryQueries/search``). SQLite's primary key already has that order (`BINARY`); PostgreSQL's primary
    /// key has the database's collation, in which ids sharing a prefix need not be neighbours.
    static let userIDBytes = """
        CREATE INDEX users_by_id_bytes ON users(tenant_id, user_id COLLATE "C");
        """
}
