#!/usr/bin/env python3
"""A month of a busy tenant's sign-ins: seeds BENCH_ROWS rows (default 10,000,000) of authentication history with
`assent admin seed-sign-ins` into a fresh database (SQLite, or a throwaway PostgreSQL with BENCH_STORE=postgres), starts
`assentd` on a free loopback port and times `GET /v1/sign-ins` pages with the filters an operator uses, over one
keep-alive connection: each query BENCH_REPEAT times (default 30), median and 95th percentile, end to end (HTTP, JSON,
the query). A benchmark, not a test: it prints figures for BENCHMARKS.md and fails nothing.

    BENCH_BIN=.build/release BENCH_ROWS=10000000 BENCH_STORE=sqlite scripts/bench-sign-ins.py

With BENCH_DIR=FOLDER (SQLite only) the database is kept there, and a later run with the same folder measures it again
without seeding.
"""
import base64
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.abspath(os.environ.get("BENCH_BIN", os.path.join(ROOT, ".build", "release")))
ROWS = int(os.environ.get("BENCH_ROWS", "10000000"))
USERS = int(os.environ.get("BENCH_USERS", "100000"))
DAYS = int(os.environ.get("BENCH_DAYS", "30"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "30"))
STORE = os.environ.get("BENCH_STORE", "sqlite")


def cli(*args):
    out = subprocess.run([os.path.join(BIN, "assent"), *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    keep = os.environ.get("BENCH_DIR") if STORE == "sqlite" else None
    folder = keep or tempfile.mkdtemp(prefix="assent-bench-sign-ins-")
    os.makedirs(folder, exist_ok=True)
    postgres = None
    server = None
    try:
        if STORE == "postgres":
            os.chmod(folder, 0o755)  # the throwaway server runs as `postgres`, which must reach its folder inside
            postgres = os.path.join(folder, "pg")
            database = subprocess.run([os.path.join(ROOT, "scripts", "throwaway-postgres.sh"), "start", postgres],
                                      capture_output=True, text=True, check=True).stdout.strip()
        else:
            database = os.path.join(folder, "assent.sqlite")
        os.environ["ASSENT_MASTER_KEY_FILE"] = os.path.join(folder, "master.key")
        saved = os.path.join(folder, "tenant.json")
        if keep and os.path.exists(saved):
            tenant = json.load(open(saved))
            print(f"measuring the database seeded before in {folder}", flush=True)
        else:
            tenant = cli("admin", "tenant", "create", "--database", database, "--name", "Busy")
            seeded = cli("admin", "seed-sign-ins", "--database", database, "--tenant", tenant["tenantId"],
                         "--rows", str(ROWS), "--users", str(USERS), "--days", str(DAYS))
            print(f"seeded {seeded['rows']:,} rows ({USERS:,} users, {DAYS} days) in {seeded['seconds']:.1f} s "
                  f"({seeded['rowsPerSecond']:,} rows/s), store {STORE}", flush=True)
            if keep:
                json.dump(tenant, open(saved, "w"))
        port = free_port()
        log = open(os.path.join(folder, "assentd.log"), "ab")
        server = subprocess.Popen([os.path.join(BIN, "assentd"), "--listen", f"127.0.0.1:{port}", "--database", database,
                                   "--rate-limits", "off"], stdout=log, stderr=log)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        deadline = time.time() + 60
        while True:
            try:
                connection.request("GET", "/healthz")
                connection.getresponse().read()
                break
            except OSError:
                if time.time() > deadline:
                    raise
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                time.sleep(0.2)
        auth = {"Authorization": "Basic " + base64.b64encode((tenant["secretKey"] + ":").encode()).decode()}

        def get(query):
            started = time.perf_counter()
            connection.request("GET", "/v1/sign-ins?" + query, headers=auth)
            response = connection.getresponse()
            body = response.read()
            took = (time.perf_counter() - started) * 1000
            assert response.status == 200, body[:300]
            return took, body

        now_ms = int(time.time() * 1000)
        day = 86_400_000
        middle = now_ms - DAYS * day // 2
        iso = lambda ms: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms / 1000))
        cursor = base64.urlsafe_b64encode(f"s1.{middle}.{2**62}".encode()).decode().rstrip("=")
        queries = [
            ("newest page, no filter", "limit=100"),
            ("one user", "user=seed-user-4242&limit=100"),
            ("one user, one week", f"user=seed-user-4242&from={iso(now_ms - 14 * day)}&to={iso(now_ms - 7 * day)}"),
            ("outcome=refused", "outcome=refused&limit=100"),
            ("method=qr", "method=qr&limit=100"),
            ("action=payment, outcome=declined", "action=payment&outcome=declined&limit=100"),
            ("one hour, mid-month", f"from={iso(middle)}&to={iso(middle + 3_600_000)}&limit=100"),
            ("outcome=expired, page at mid-month (cursor)", f"outcome=expired&cursor={cursor}&limit=100"),
            ("CSV export, 10,000 rows", "format=csv&limit=10000"),
        ]
        print(f"| query | rows | median ms | p95 ms |")
        print(f"|---|---:|---:|---:|")
        for name, query in queries:
            get(query)  # once to warm the connection and the page cache
            times, body = [], b""
            for _ in range(REPEAT):
                took, body = get(query)
                times.append(took)
            rows = body.count(b"\r\n") - 1 if "csv" in query else len(json.loads(body)["signIns"])
            times.sort()
            p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
            print(f"| {name} | {rows} | {statistics.median(times):.2f} | {p95:.2f} |", flush=True)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        if postgres is not None:
            subprocess.run([os.path.join(ROOT, "scripts", "throwaway-postgres.sh"), "stop", postgres], check=False)
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
