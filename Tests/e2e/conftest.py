"""Starts a real assentd on a free loopback port, for the end-to-end tests, on each store in turn.

Every test runs once per store named in $ASSENT_E2E_STORES (default "sqlite,postgres"): with a throwaway SQLite file,
and with a fresh database on a throwaway PostgreSQL server (initdb + pg_ctl on a temporary directory and a free port).
The binaries come from $ASSENT_BIN (default .build/debug). Every server is stopped by the fixture that started it.

`make test` runs the suite in parallel (pytest-xdist, `-n`): most of a test's time is spent waiting on a server, so
more workers than cores keep both cores busy. The PostgreSQL server is one for the whole run, started by the process
that coordinates the workers (`pytest_configure`) and stopped when it ends; each worker reaches it through
$ASSENT_E2E_PG (its directory and port), and every Server gets a database of its own on it. Collection puts every
SQLite test before every PostgreSQL test and xdist hands each worker its tests in that order, so a worker switches
store at most once and the session's shared servers are built at most once per store and worker.
"""
import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
import uuid

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, os.environ.get("ASSENT_BIN", ".build/debug"))
STORES = [name.strip() for name in os.environ.get("ASSENT_E2E_STORES", "sqlite,postgres").split(",") if name.strip()]
PG_BIN = "/usr/lib/postgresql/15/bin"
# The store the running test uses; set by the `store` fixture.
CURRENT = {"store": "sqlite", "postgres": None}


# Ports handed to servers come from below the kernel's ephemeral range (32768-60999 here), one block per xdist
# worker: a port the kernel picked with bind(0) could be taken by any outgoing connection (a PostgreSQL client, a
# browser) before the server bound it, and two workers could be handed the same one.
_PORT_BLOCK = 1500
_PORT_BASE = 17000
_next_port = [0]


def free_port():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0
    base = _PORT_BASE + (index % 10) * _PORT_BLOCK
    for _ in range(_PORT_BLOCK):
        port = base + _next_port[0] % _PORT_BLOCK
        _next_port[0] += 1
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {base}..{base + _PORT_BLOCK - 1}")


def assent(*args):
    """Runs the assent CLI and returns its parsed --json output. Tenant URLs may lead to loopback (the fakes listen
    there), as with the servers' --allow-private-urls."""
    command = [os.path.join(BIN, "assent"), *args, "--json"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, ASSENT_ALLOW_PRIVATE_URLS="1"))
    if out.returncode != 0:
        # The whole stderr: a crash's backtrace is what its investigation needs, and pytest shortens the exception's.
        raise AssertionError(f"{' '.join(command)} exited {out.returncode}\n--- stdout\n{out.stdout}\n"
                             f"--- stderr\n{out.stderr}")
    return json.loads(out.stdout)


class Postgres:
    """A throwaway PostgreSQL 15 server for the whole test run; each Server gets a database of its own.

    `Postgres.start()` makes one (the coordinating process does, once); `Postgres.attach(spec)` reaches the one whose
    `spec` ("DIRECTORY:PORT") the coordinator published in $ASSENT_E2E_PG."""

    def __init__(self, directory, port):
        self.directory = directory
        self.port = port
        self.data = os.path.join(self.directory, "data")
        self.master_key_file = os.path.join(self.directory, "master.key")

    @classmethod
    def start(cls):
        if not os.path.exists(os.path.join(PG_BIN, "initdb")):
            raise RuntimeError(f"PostgreSQL 15 is missing ({PG_BIN}/initdb): `make test` installs postgresql-15")
        directory = tempfile.mkdtemp(prefix="assent-e2e-pg-")
        os.chmod(directory, 0o777)
        pg = cls(directory, free_port())
        try:
            pg.run("initdb", "-D", pg.data, "-A", "trust", "-U", "postgres")
            # fsync off: a crash of this throwaway server loses nothing a test needs (the durability tests crash
            # assentd, not PostgreSQL), and the tests' many small commits no longer wait on the disk.
            pg.run("pg_ctl", "-D", pg.data, "-l", os.path.join(directory, "pg.log"), "-w", "-o",
                   f"-p {pg.port} -k {directory} -c listen_addresses=127.0.0.1 -c max_connections=800 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off", "start")
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        with open(pg.master_key_file, "w") as f:
            f.write(base64.b64encode(os.urandom(32)).decode() + "\n")
        os.chmod(pg.master_key_file, 0o600)
        return pg

    @classmethod
    def attach(cls, spec):
        directory, _, port = spec.rpartition(":")
        return cls(directory, int(port))

    @property
    def spec(self):
        return f"{self.directory}:{self.port}"

    def run(self, tool, *args):
        command = [os.path.join(PG_BIN, tool), *args]
        if os.getuid() == 0:  # initdb refuses root
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def psql(self, database, sql):
        out = subprocess.run([os.path.join(PG_BIN, "psql"), "-X", "-q", "-At", "-h", "127.0.0.1", "-p", str(self.port),
                              "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-c", sql],
                             check=True, capture_output=True, text=True, timeout=60)
        return out.stdout

    def create_database(self):
        name = "assent_" + uuid.uuid4().hex[:12]
        self.psql("postgres", f"CREATE DATABASE {name}")
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self):
        try:
            self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def pytest_configure(config):
    """The coordinating process (or a run without workers) starts the run's PostgreSQL server when a PostgreSQL test
    may run; workers inherit $ASSENT_E2E_PG."""
    if hasattr(config, "workerinput") or "postgres" not in STORES or os.environ.get("ASSENT_E2E_PG"):
        return
    pg = Postgres.start()
    config._assent_postgres = pg
    os.environ["ASSENT_E2E_PG"] = pg.spec


def pytest_unconfigure(config):
    pg = getattr(config, "_assent_postgres", None)
    if pg is not None:
        pg.stop()
        os.environ.pop("ASSENT_E2E_PG", None)


def postgres():
    """The run's PostgreSQL server."""
    if CURRENT["postgres"] is None:
        spec = os.environ.get("ASSENT_E2E_PG")
        if not spec:
            raise RuntimeError("no PostgreSQL server for this run: $ASSENT_E2E_STORES leaves postgres out")
        CURRENT["postgres"] = Postgres.attach(spec)
    return CURRENT["postgres"]


@pytest.fixture(scope="session", params=STORES, autouse=True)
def store(request):
    """Runs every test on each store; with PostgreSQL the servers and the CLI share one master key file."""
    CURRENT["store"] = request.param
    saved = os.environ.get("ASSENT_MASTER_KEY_FILE")
    if request.param == "postgres":
        os.environ["ASSENT_MASTER_KEY_FILE"] = postgres().master_key_file
    try:
        yield request.param
    finally:
        CURRENT["store"] = "sqlite"
        if saved is None:
            os.environ.pop("ASSENT_MASTER_KEY_FILE", None)
        else:
            os.environ["ASSENT_MASTER_KEY_FILE"] = saved


class Server:
    def __init__(self, directory, database=None):
        self.directory = directory
        self.store = CURRENT["store"]
        if database is not None:
            self.database = database
        elif self.store == "postgres":
            self.database = postgres().create_database()
        else:
            self.database = os.path.join(directory, "assent.sqlite")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.api = self.url + "/v1"
        self.log_path = os.path.join(directory, "assentd.log")
        self.process = None

    def start(self, *extra, allow_private_urls=True):
        """Starts assentd with `extra` flags. Tenant URLs may reach loopback (the tests' fakes) unless
        `allow_private_urls=False`. Rate limits are off (every test client is 127.0.0.1); a test about limits passes
        `"--rate-limits", "on"`, which wins as the later flag."""
        self.log = open(self.log_path, "ab")
        private = ["--allow-private-urls"] if allow_private_urls else []
        self.process = subprocess.Popen(
            [os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{self.port}", "--database", self.database,
             *private, "--rate-limits", "off", *extra],
            stdout=self.log, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("assentd exited early:\n" + open(self.log_path).read())
            try:
                if requests.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise RuntimeError("assentd did not become healthy:\n" + open(self.log_path).read())

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def snapshot(self, history=False):
        """Every row of every table, to prove a refused request changed nothing. `metric_watermarks`, `audit_entries` and
        the overview's counters (`overview_*`) are left out: the metrics sampler moves the first in the background whatever
        the requests do, refusals by a rate limit are summarised in the second once a minute by design (test_audit.py
        covers it), and the overview's flush and fold move counts between its tables in the background (what they count
        is in the tables kept). `sign_in_history` is left out unless `history`: the same sampler records other tests'
        expired challenges there in the background."""
        excluded = ["metric_watermarks", "audit_entries"] + ([] if history else ["sign_in_history"])
        names = ", ".join(f"'{name}'" for name in excluded)
        if self.database.startswith("postgres"):
            pg, name = postgres(), self.database.rsplit("/", 1)[1]
            tables = pg.psql(name, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
                                   f"AND table_name NOT IN ('assent_schema', {names}) "
                                   "AND table_name NOT LIKE 'overview%' ORDER BY table_name").split()
            query = " UNION ALL ".join(f"SELECT '{t}', x::text FROM \"{t}\" x" for t in tables)
            rows = {t: [] for t in tables}
            for line in pg.psql(name, query).splitlines():
                table, _, row = line.partition("|")
                rows[table].append(row)
            return {t: sorted(r) for t, r in rows.items()}
        db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            tables = [r[0] for r in db.execute(
                f"SELECT name FROM sqlite_master WHERE type='table' AND name NOT IN ({names}) "
                "AND name NOT LIKE 'overview%' ORDER BY name")]
            return {t: sorted(map(repr, db.execute(f'SELECT * FROM "{t}"').fetchall())) for t in tables}
        finally:
            db.close()

    def log_text(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")


@contextlib.contextmanager
def console_server(prefix, tenant_name, *flags, prepare=None):
    """A server for the console tests, on the current store: the console's web assets (`--web-root web`) and a tenant
    named `tenant_name` (`tenant_id`, `secret`), started with `flags` besides; `prepare(server)` runs before it starts.
    Stopped, and its directory removed, when the block ends."""
    directory = tempfile.mkdtemp(prefix=prefix)
    server = Server(directory)
    created = assent("admin", "tenant", "create", "--database", server.database, "--name", tenant_name)
    server.tenant_id, server.secret = created["tenantId"], created["secretKey"]
    if prepare is not None:
        prepare(server)
    server.start("--web-root", os.path.join(ROOT, "web"), *flags)
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def server(store):
    """The shared server, one per store: it names `store` so it is made again (on PostgreSQL) for the second store
    instead of the first store's server serving both rounds."""
    with tempfile.TemporaryDirectory() as directory:
        s = Server(directory)
        first = assent("admin", "tenant", "create", "--database", s.database, "--name", "E2E")
        second = assent("admin", "tenant", "create", "--database", s.database, "--name", "Other")
        s.tenant_id, s.secret = first["tenantId"], first["secretKey"]
        s.other_tenant_id, s.other_secret = second["tenantId"], second["secretKey"]
        s.start()
        try:
            yield s
        finally:
            s.stop()
