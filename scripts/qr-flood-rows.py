#!/usr/bin/env python3
"""Rows left in the database after a flood of anonymous QR starts, once the flood's challenges expired.

Usage: scripts/qr-flood-rows.py [--store sqlite|postgres] [--starts 10000] [--skip-build] [--keep]

Builds the release assentd and assent (unless --skip-build), starts assentd with --rate-limits off on a throwaway
database (a SQLite file, or a throwaway PostgreSQL 15 from scripts/throwaway-postgres.sh), creates a tenant whose
challenge timeout is the minimum (10 s), and sends --starts anonymous QR starts (POST /v1/client/challenge/qr-code
with the tenant's Basic header, keep-alive connections from 127.0.0.1). It reads the database three times: before the
flood, right after it, and once the last challenge expired and a sweep ran after that (the sweeper runs every minute,
so the wait is the timeout plus a minute and a margin). Each reading is the rows per table and the database's size:
for SQLite the file sizes (database and -wal), page size, page count and freelist count (no VACUUM); for PostgreSQL
pg_database_size and the live/dead tuple counts of the tables that changed. Prints one JSON object on stdout;
progress goes to stderr. The server and the throwaway database are removed on exit (unless --keep).
"""
import argparse
import base64
import collections
import importlib.util
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHALLENGE_TIMEOUT = 10  # the minimum `assent admin tenant settings --challenge-timeout` accepts
SWEEP_INTERVAL = 60  # Sweeper.interval
THREADS = 4
PSQL = "/usr/lib/postgresql/15/bin/psql"

# scripts/qr-flood.py's start request (its name has a hyphen, so it is loaded by path).
_spec = importlib.util.spec_from_file_location("qr_flood", os.path.join(ROOT, "scripts/qr-flood.py"))
qr_flood = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(qr_flood)


def say(message):
    print("qr-flood-rows: " + message, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def flood(port, tenant, starts):
    """Sends `starts` anonymous QR starts over THREADS keep-alive connections; returns counts by status and seconds."""
    headers = {"Content-Type": "application/json",
               "Authorization": "Basic " + base64.b64encode((tenant + ":").encode()).decode()}
    body = json.dumps({"action": "signIn"})
    counts, lock = collections.Counter(), threading.Lock()
    remaining = [starts]

    def run():
        connection, local = None, collections.Counter()
        while True:
            with lock:
                if remaining[0] == 0:
                    break
                remaining[0] -= 1
            connection = qr_flood.start(connection, "127.0.0.1", port, "127.0.0.1", headers, body, local)
        with lock:
            counts.update(local)

    started = time.monotonic()
    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {str(k): v for k, v in sorted(counts.items(), key=str)}, time.monotonic() - started


class SQLiteDatabase:
    def __init__(self, workdir):
        self.url = os.path.join(workdir, "assent.sqlite")

    def reading(self):
        connection = sqlite3.connect(f"file:{self.url}?mode=ro", uri=True)
        try:
            tables = [row[0] for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            rows = {table: connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in tables}
            pragma = {name: connection.execute(f"PRAGMA {name}").fetchone()[0]
                      for name in ("page_size", "page_count", "freelist_count")}
        finally:
            connection.close()
        wal = self.url + "-wal"
        return {"rows": rows, "fileBytes": os.path.getsize(self.url),
                "walBytes": os.path.getsize(wal) if os.path.exists(wal) else 0, **pragma}

    def stop(self):
        pass


class PostgresDatabase:
    def __init__(self, workdir):
        os.chmod(workdir, 0o755)
        self.directory = os.path.join(workdir, "postgres")
        self.url = subprocess.run([os.path.join(ROOT, "scripts/throwaway-postgres.sh"), "start", self.directory],
                                  check=True, capture_output=True, text=True).stdout.strip()

    def query(self, sql):
        out = subprocess.run([PSQL, self.url, "-X", "-A", "-t", "-F", "\t", "-c", sql],
                             check=True, capture_output=True, text=True).stdout
        return [line.split("\t") for line in out.splitlines() if line]

    def reading(self):
        tables = [row[0] for row in self.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")]
        rows = {table: int(self.query(f'SELECT count(*) FROM "{table}"')[0][0]) for table in tables}
        self.query("SELECT pg_stat_force_next_flush()")
        tuples = {name: {"live": int(live), "dead": int(dead)} for name, live, dead in self.query(
            "SELECT relname, n_live_tup, n_dead_tup FROM pg_stat_user_tables "
            "WHERE n_live_tup > 0 OR n_dead_tup > 0 ORDER BY relname")}
        size = int(self.query("SELECT pg_database_size(current_database())")[0][0])
        return {"rows": rows, "databaseBytes": size, "tuples": tuples}

    def stop(self):
        subprocess.run([os.path.join(ROOT, "scripts/throwaway-postgres.sh"), "stop", self.directory], check=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--starts", type=int, default=10_000)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()

    os.chdir(ROOT)
    if not options.skip_build:
        # One product per call: swift build honours only the last --product it is given.
        for product in ("assentd", "assent"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product], check=True)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], check=True,
                             capture_output=True, text=True).stdout.strip()

    workdir = tempfile.mkdtemp(prefix="assent-qr-flood-rows.")
    log_path = os.path.join(workdir, "assentd.log")
    database = server = None
    try:
        if options.store == "postgres":
            database = PostgresDatabase(workdir)
            key = os.path.join(workdir, "master.key")
            with open(key, "w") as f:
                f.write(base64.b64encode(os.urandom(32)).decode() + "\n")
            os.chmod(key, 0o600)
            os.environ["ASSENT_MASTER_KEY_FILE"] = key  # the server and the CLI share it
        else:
            database = SQLiteDatabase(workdir)
        port = free_port()
        with open(log_path, "w") as log:
            server = subprocess.Popen([os.path.join(bin_dir, "assentd"), "--listen", f"127.0.0.1:{port}",
                                       "--database", database.url, "--rate-limits", "off"], stdout=log, stderr=log)
        server_started = time.monotonic()
        for _ in range(300):
            if server.poll() is not None:
                raise SystemExit(f"assentd exited ({server.returncode}); log {log_path}")
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).status == 200:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        else:
            raise SystemExit("assentd did not answer /healthz within 30 s")

        assent = os.path.join(bin_dir, "assent")
        created = subprocess.run([assent, "admin", "tenant", "create", "--database", database.url, "--json"],
                                 check=True, capture_output=True, text=True).stdout
        tenant = json.loads(created[created.index("{"):])["tenantId"]  # the secret key is never printed
        subprocess.run([assent, "admin", "tenant", "settings", "--database", database.url, "--tenant", tenant,
                        "--challenge-timeout", str(CHALLENGE_TIMEOUT)], check=True, capture_output=True)
        say(f"assentd on 127.0.0.1:{port} ({options.store}), tenant {tenant}, challenge timeout {CHALLENGE_TIMEOUT} s")

        before = database.reading()
        say(f"sending {options.starts} anonymous QR starts")
        statuses, seconds = flood(port, tenant, options.starts)
        flood_ended = time.monotonic()
        after_flood = database.reading()
        say(f"flood done in {seconds:.1f} s: {statuses}")

        # The last challenge expires CHALLENGE_TIMEOUT s after the flood; the first sweep that starts after that
        # removes it. Sweeps run at server start and then every SWEEP_INTERVAL s (after the previous one ends).
        expired = flood_ended + CHALLENGE_TIMEOUT
        sweeps = lambda: open(log_path).read().count('"swept expired rows"')
        deadline = expired + SWEEP_INTERVAL + 15
        say(f"waiting up to {deadline - time.monotonic():.0f} s for a sweep after the last expiry")
        seen_at_expiry = None
        while time.monotonic() < deadline:
            if seen_at_expiry is None and time.monotonic() >= expired:
                seen_at_expiry = sweeps()
            if seen_at_expiry is not None and sweeps() > seen_at_expiry:
                time.sleep(1)  # let the sweep's transaction finish before reading
                break
            time.sleep(1)
        else:
            say("no sweep logged within a minute of the last expiry; reading anyway")
        after_expiry = database.reading()
        swept = [json.loads(line).get("rows") for line in open(log_path) if '"swept expired rows"' in line]
        print(json.dumps({"store": options.store, "starts": options.starts, "byStatus": statuses,
                          "floodSeconds": round(seconds, 1), "challengeTimeoutSeconds": CHALLENGE_TIMEOUT,
                          "secondsFromFloodEndToLastReading": round(time.monotonic() - flood_ended, 1),
                          "serverUptimeSeconds": round(time.monotonic() - server_started, 1),
                          "sweptRowsLogged": swept,
                          "before": before, "afterFlood": after_flood, "afterExpiry": after_expiry}, indent=1))
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        if database is not None:
            database.stop()
        if options.keep:
            say(f"kept {workdir}")
        else:
            subprocess.run(["rm", "-rf", workdir], check=False)


if __name__ == "__main__":
    main()
