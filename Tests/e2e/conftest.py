"""Starts a real assentd on a free loopback port with a throwaway SQLite database, for the end-to-end tests.

The binaries come from $ASSENT_BIN (default .build/debug). Every server is stopped by the fixture that started it.
"""
import json
import os
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, os.environ.get("ASSENT_BIN", ".build/debug"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def assent(*args):
    """Runs the assent CLI and returns its parsed --json output."""
    out = subprocess.run([os.path.join(BIN, "assent"), *args, "--json"], check=True, capture_output=True,
                         text=True, timeout=60)
    return json.loads(out.stdout)


class Server:
    def __init__(self, directory):
        self.directory = directory
        self.database = os.path.join(directory, "assent.sqlite")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.api = self.url + "/v1"
        self.log_path = os.path.join(directory, "assentd.log")
        self.process = None

    def start(self, *extra):
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{self.port}", "--database", self.database,
             "--no-dev-tenant", *extra],
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

    def snapshot(self):
        """Every row of every table, to prove a refused request changed nothing."""
        db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
            return {t: sorted(map(repr, db.execute(f'SELECT * FROM "{t}"').fetchall())) for t in tables}
        finally:
            db.close()

    def log_text(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")


@pytest.fixture(scope="session")
def server():
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
