"""Backup and restore end to end, on each store: `assent admin backup` while assentd serves a write load, then
`assent admin restore` into a fresh database and a new server on it — every track acknowledged before the backup
began is there, `assent admin audit verify` passes and the tenant's secret key works; a tampered or truncated backup
is refused naming the file, and nothing is written; a sealed APNs key still signs pushes from the restored server, and
`--force` restores over an existing database; and (SQLite) assentd backs the database up before it migrates an older
schema."""
import json
import os
import sqlite3
import subprocess
import tempfile
import threading
import time

import pytest
import requests

from conftest import BIN, CURRENT, Server, assent, postgres


def run(*args, env=None):
    """The CLI's exit status, stdout and stderr."""
    out = subprocess.run([os.path.join(BIN, "assent"), *args], capture_output=True, text=True, timeout=180,
                         env=env if env is not None else os.environ)
    return out.returncode, out.stdout, out.stderr


def fresh_database(directory):
    """A database nothing has used: a new PostgreSQL database, or a path in a folder that does not exist yet."""
    if CURRENT["store"] == "postgres":
        return postgres().create_database()
    return os.path.join(directory, "restored", "assent.sqlite")


def table_count(database):
    """How many tables the database has (0 for an SQLite file that is not there)."""
    if database.startswith("postgres"):
        return int(postgres().psql(database.rsplit("/", 1)[1],
                                   "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'"))
    if not os.path.exists(database):
        return 0
    db = sqlite3.connect(database)
    try:
        return db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    finally:
        db.close()


def test_a_backup_under_load_restores_into_a_server_with_every_acknowledged_write():
    with tempfile.TemporaryDirectory(prefix="assent-e2e-backup-") as directory:
        os.makedirs(os.path.join(directory, "a"))
        s = Server(os.path.join(directory, "a"))
        tenant = assent("admin", "tenant", "create", "--database", s.database, "--name", "Backed up")
        secret, tenant_id = tenant["secretKey"], tenant["tenantId"]
        s.start()
        acknowledged, lock, stop = [], threading.Lock(), threading.Event()

        def load(n):
            session = requests.Session()
            i = 0
            while not stop.is_set() and i < 2000:
                r = session.post(f"{s.api}/users/load-{n}-{i}/actions/signIn", auth=(secret, ""), json={}, timeout=10)
                if r.status_code == 200:
                    with lock:
                        acknowledged.append((time.monotonic(), f"load-{n}-{i}", r.json()["idempotencyKey"]))
                i += 1

        threads = [threading.Thread(target=load, args=(n,), daemon=True) for n in range(4)]
        folder = os.path.join(directory, "backup")
        try:
            for t in threads:
                t.start()
            deadline = time.time() + 30
            while len(acknowledged) < 40 and time.time() < deadline:
                time.sleep(0.05)
            began = time.monotonic()
            code, out, err = run("admin", "backup", "--database", s.database, "--to", folder, "--json")
            assert code == 0, err
            time.sleep(0.3)  # the load goes on after the backup too
        finally:
            stop.set()
            for t in threads:
                t.join(timeout=30)
            s.stop()
        before = [(user, key) for at, user, key in acknowledged if at < began]
        after = len(acknowledged) - len(before)
        assert len(before) >= 40 and after > 0, (len(before), after)

        assert oct(os.stat(folder).st_mode & 0o777) == "0o700"
        for name in os.listdir(folder):
            assert oct(os.stat(os.path.join(folder, name)).st_mode & 0o777) == "0o600", name
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        assert manifest["contents"]["auditHeads"][tenant_id]["sequence"] >= 1
        assert manifest["contents"]["rowCounts"]["tenants"] == 1
        assert manifest["contents"]["rowCounts"]["actions"] >= len(before)
        assert set(manifest["files"]) == {manifest["databaseFile"], "master.key"}

        target = fresh_database(directory)
        code, out, err = run("admin", "restore", "--from", folder, "--database", target, "--json")
        assert code == 0, err
        # A second restore onto it is refused without --force.
        code, _, err = run("admin", "restore", "--from", folder, "--database", target)
        assert code != 0 and ("exists" in err or "tables" in err), err

        os.makedirs(os.path.join(directory, "b"))
        restored = Server(os.path.join(directory, "b"), database=target)
        key = ["--master-key-file", os.path.join(folder, "master.key")] if target.startswith("postgres") else []
        restored.start(*key)
        try:
            session = requests.Session()
            for user, idempotency_key in before:
                r = session.get(f"{restored.api}/users/{user}/actions/signIn/{idempotency_key}", auth=(secret, ""),
                                timeout=10)
                assert r.status_code == 200, (user, r.text)
            r = session.post(f"{restored.api}/users/after-restore/actions/signIn", auth=(secret, ""), json={}, timeout=10)
            assert r.status_code == 200, r.text
            env = dict(os.environ)
            if target.startswith("postgres"):
                env["ASSENT_MASTER_KEY_FILE"] = os.path.join(folder, "master.key")
            code, out, err = run("admin", "audit", "verify", "--database", target, "--tenant", tenant_id, env=env)
            assert code == 0, err
            assert "intact" in out
        finally:
            restored.stop()


@pytest.mark.parametrize("damage", ["tampered", "truncated", "key-changed"])
def test_a_damaged_backup_is_refused_naming_the_file_and_nothing_is_written(damage):
    with tempfile.TemporaryDirectory(prefix="assent-e2e-backup-") as directory:
        source = Server(directory)
        assent("admin", "tenant", "create", "--database", source.database, "--name", "Damaged")
        folder = os.path.join(directory, "backup")
        code, _, err = run("admin", "backup", "--database", source.database, "--to", folder)
        assert code == 0, err
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        name = "master.key" if damage == "key-changed" else manifest["databaseFile"]
        path = os.path.join(folder, name)
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            if damage == "truncated":
                f.truncate(size // 2)
            else:
                f.seek(size // 2)
                byte = f.read(1)
                f.seek(size // 2)
                f.write(bytes([byte[0] ^ 0x5A]))
        target = fresh_database(directory)
        code, out, err = run("admin", "restore", "--from", folder, "--database", target)
        assert code != 0
        assert name in err, err
        assert table_count(target) == 0
        assert not os.path.exists(os.path.join(directory, "restored"))


def test_a_backup_into_a_folder_that_is_not_empty_is_refused():
    with tempfile.TemporaryDirectory(prefix="assent-e2e-backup-") as directory:
        source = Server(directory)
        assent("admin", "tenant", "create", "--database", source.database, "--name", "Full")
        folder = os.path.join(directory, "backup")
        os.makedirs(folder)
        open(os.path.join(folder, "something"), "w").close()
        code, _, err = run("admin", "backup", "--database", source.database, "--to", folder)
        assert code != 0 and "not empty" in err, err
        assert os.listdir(folder) == ["something"]


# Pre-migration backups are written for SQLite; PostgreSQL is backed up with `assent admin backup` (above).
@pytest.mark.parametrize("store", ["sqlite"], indirect=True, scope="session")
def test_assentd_backs_up_an_older_sqlite_database_before_migrating_it(store):
    with tempfile.TemporaryDirectory(prefix="assent-e2e-backup-") as directory:
        s = Server(directory)
        tenant = assent("admin", "tenant", "create", "--database", s.database, "--name", "Older")
        # The database as an assentd from before schema step 17 left it.
        db = sqlite3.connect(s.database)
        try:
            db.executescript("ALTER TABLE console_sessions DROP COLUMN secret_version; "
                             "DELETE FROM schema_steps WHERE version = 17; PRAGMA user_version = 16;")
        finally:
            db.close()
        s.start("--pre-migration-backups", "1")
        try:
            r = requests.post(f"{s.api}/users/u/actions/signIn", auth=(tenant["secretKey"], ""), json={}, timeout=10)
            assert r.status_code == 200, r.text
        finally:
            s.stop()
        backups = [name for name in os.listdir(directory) if name.startswith("assent.sqlite.pre-migration-")]
        assert len(backups) == 1, os.listdir(directory)
        folder = os.path.join(directory, backups[0])
        assert backups[0] in s.log_text()
        manifest = json.load(open(os.path.join(folder, "manifest.json")))
        assert 17 not in manifest["contents"]["schemaSteps"]
        assert manifest["contents"]["rowCounts"]["tenants"] == 1
        # The copy restores (into a build that knows its steps, which migrates it again when served).
        target = os.path.join(directory, "restored", "assent.sqlite")
        code, _, err = run("admin", "restore", "--from", folder, "--database", target)
        assert code == 0, err


def test_a_sealed_apns_key_still_signs_pushes_after_a_restore_and_force_replaces_a_database(store):
    """The APNs key is sealed under the master key: restored with the backup's key beside it, the restored server
    unseals it and signs a push a fake APNs verifies with the key's public half. `--force` then replaces the restored
    database (PostgreSQL: a database with tables) with the backup again, and the server serves from it."""
    from test_push_delivery import KEY_ID, TEAM_ID, TOPIC, Keys, verify_es256
    from fakes.apns import FakeAPNs
    from fakes.http_fakes import FakeFCM
    from device import Device
    from authsignal.client import AuthsignalClient

    with tempfile.TemporaryDirectory(prefix="assent-e2e-backup-apns-") as directory:
        os.makedirs(os.path.join(directory, "a"))
        s = Server(os.path.join(directory, "a"))
        tenant = assent("admin", "tenant", "create", "--database", s.database, "--name", "Pushes")
        fcm = FakeFCM()
        keys = Keys(directory, fcm.url + "/token")
        assent("admin", "tenant", "push", "--database", s.database, "--tenant", tenant["tenantId"], "--provider", "apns",
               "--apns-key-file", keys.p8, "--apns-key-id", KEY_ID, "--apns-team-id", TEAM_ID, "--apns-topic", TOPIC,
               "--apns-environment", "sandbox")
        s.start()
        push_token = os.urandom(32).hex()
        try:
            sdk = AuthsignalClient(tenant["secretKey"], api_url=s.api)
            token = sdk.track("restored-pusher", "enrol", {"scope": "add:authenticators"})["token"]
            device = Device(s, tenant["tenantId"], "ios")
            added = device.add(token, pushToken=push_token)
            assert added.status_code == 200, added.text
        finally:
            s.stop()
        folder = os.path.join(directory, "backup")
        code, _, err = run("admin", "backup", "--database", s.database, "--to", folder)
        assert code == 0, err
        target = fresh_database(directory)
        code, _, err = run("admin", "restore", "--from", folder, "--database", target)
        assert code == 0, err
        # Replacing the restored database needs --force; with it, the backup is restored over it.
        code, _, err = run("admin", "restore", "--from", folder, "--database", target)
        assert code != 0, err
        code, _, err = run("admin", "restore", "--from", folder, "--database", target, "--force")
        assert code == 0, err

        apns = FakeAPNs(directory).start()
        os.makedirs(os.path.join(directory, "b"))
        restored = Server(os.path.join(directory, "b"), database=target)
        key = ["--master-key-file", os.path.join(folder, "master.key")] if target.startswith("postgres") else []
        restored.start("--apns-url", apns.url, "--push-ca-file", apns.ca_file, "--push-retry", "0.05", *key)
        try:
            env = dict(os.environ, ASSENT_MASTER_KEY_FILE=os.path.join(folder, "master.key")) if key else None
            code, out, err = run("admin", "tenant", "push", "--database", target, "--tenant", tenant["tenantId"],
                                 "--json", env=env)
            assert code == 0, err
            shown = json.loads(out)
            assert shown["apns"]["configured"] is True and shown["apns"]["keyId"] == KEY_ID
            sdk = AuthsignalClient(tenant["secretKey"], api_url=restored.api)
            tracked = sdk.track("restored-pusher", "signIn")
            started = requests.post(f"{restored.api}/client/challenge/push", json={"action": "signIn"},
                                    headers={"Authorization": "Bearer " + tracked["token"]}, timeout=30)
            assert started.status_code == 200, started.text
            got = apns.wait_for(1)[0]
            assert got["headers"][":path"] == f"/3/device/{push_token}"
            header, claims = verify_es256(got["headers"]["authorization"][len("bearer "):], keys.apns_public)
            assert header["kid"] == KEY_ID and claims["iss"] == TEAM_ID
        finally:
            restored.stop()
            apns.stop()
            fcm.stop()
